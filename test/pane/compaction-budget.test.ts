import { CompactionBudget } from '../../src/server/pane/compaction-budget';

describe('the compaction budget', () => {
  test('starts with its burst available', () => {
    const budget = new CompactionBudget(0.5, 20);
    expect(budget.available).toBe(true);
    budget.spend(19);
    expect(budget.available).toBe(true);
    budget.spend(1);
    expect(budget.available).toBe(false);
  });

  test('earns its share of the time back after an overdraft', () => {
    const budget = new CompactionBudget(0.5, 20);
    budget.spend(30); // 10 ms overdrawn
    budget.earn(19);
    expect(budget.available).toBe(false);
    budget.earn(2);
    expect(budget.available).toBe(true);
  });

  test('saves up no more than its burst', () => {
    const budget = new CompactionBudget(0.5, 20);
    budget.earn(1000);
    budget.spend(20);
    expect(budget.available).toBe(false);
  });
});
