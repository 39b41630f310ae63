import { activityPollers } from '../../../src/workers/cpuWorker';

describe('activityPollers', () => {
  test('leaves activity slots free of polls, so a scheduled activity can be handed back eagerly', () => {
    for (const slots of [2, 4, 8, 100]) {
      const { type, maximum } = activityPollers(slots);
      expect(type).toBe('simple-maximum');
      expect(maximum).toBeGreaterThanOrEqual(1);
      expect(maximum).toBeLessThan(slots);
    }
  });

  test('the cpu and gpu workers\' slot counts keep most slots free; a worker of one slot still polls', () => {
    expect(activityPollers(8).maximum).toBe(2);
    expect(activityPollers(4).maximum).toBe(2);
    expect(activityPollers(1).maximum).toBe(1);
  });
});
