/**
 * Python's round(x, digits) on a float: the exact binary value rounded to `digits` decimals, an exact
 * tie to the even digit (round(0.125, 2) == 0.12, round(2.675, 2) == 2.67 because 2.675 is below the tie).
 * toFixed alone rounds ties away from zero.
 */
export function pythonRound(x: number, digits: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21) return x;
  // toFixed(100) is the exact decimal expansion for every magnitude these averages take.
  const [whole, frac] = Math.abs(x).toFixed(100).split('.');
  const kept = whole + frac.slice(0, digits);
  const rest = frac.slice(digits);
  const last = Number(kept[kept.length - 1]);
  const up = rest[0] > '5' || (rest[0] === '5' && (/[1-9]/.test(rest.slice(1)) || last % 2 === 1));
  let digitsText = up ? increment(kept) : kept;
  const intLen = digitsText.length - digits;
  digitsText = `${digitsText.slice(0, intLen)}.${digitsText.slice(intLen)}`;
  const value = Number(digitsText);
  return x < 0 ? -value : value;
}

function increment(decimal: string): string {
  const chars = decimal.split('');
  let i = chars.length - 1;
  while (i >= 0 && chars[i] === '9') chars[i--] = '0';
  if (i < 0) return '1' + chars.join('');
  chars[i] = String(Number(chars[i]) + 1);
  return chars.join('');
}
