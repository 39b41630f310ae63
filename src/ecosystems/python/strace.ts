// The strace parser is shared by every ecosystem; kept here so existing imports still work.
export * from '../strace';
