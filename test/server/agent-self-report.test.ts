import { SelfReport } from '../../src/server/agent/self-report';
import { NO_FLAGS } from '../../src/zor/agent-state';
import { parseStateOsc, type StateReport } from '../../src/zor/emit/state-osc';

function report(params: string): StateReport {
  const parsed = parseStateOsc(params);
  if (parsed === undefined) throw new Error(`not a report: ${params}`);
  return parsed;
}

const JOB = 4242;
const jobIs = (job: number | undefined) => () => job;

describe('a pane reporting its own state (OSC 7877)', () => {
  test('the report is in force while the job that sent it holds the foreground', () => {
    const reports = new SelfReport();
    expect(reports.accept(report('state=blocked;agent=mine;seq=1;visible=blocker'), JOB)).toBe(true);
    expect(reports.inForce(jobIs(JOB))).toEqual({
      agent: 'mine',
      state: 'blocked',
      visible: { idle: false, blocker: true, working: false },
    });
  });

  test('a repeat of the last seq with the same content is a duplicate', () => {
    const reports = new SelfReport();
    reports.accept(report('state=working;agent=mine;seq=7'), JOB);
    expect(reports.accept(report('state=working;agent=mine;seq=7'), JOB)).toBe(false);
  });

  test('reports apply in arrival order: a lower seq after a higher one still replaces it', () => {
    const reports = new SelfReport();
    reports.accept(report('state=working;agent=mine;seq=9'), JOB);
    expect(reports.accept(report('state=idle;agent=mine;seq=1'), JOB)).toBe(true);
    expect(reports.inForce(jobIs(JOB))?.state).toBe('idle');
  });

  test('once another job holds the foreground the report lapses, and stays lapsed', () => {
    const reports = new SelfReport();
    reports.accept(report('state=working;agent=mine;seq=1'), JOB);
    expect(reports.inForce(jobIs(JOB + 1))).toBeUndefined();
    expect(reports.inForce(jobIs(JOB))).toBeUndefined();
  });

  test('a report of none carries no agent', () => {
    const reports = new SelfReport();
    reports.accept(report('state=none;agent=mine;seq=2'), JOB);
    expect(reports.inForce(jobIs(JOB))).toEqual({ agent: undefined, state: 'none', visible: NO_FLAGS });
  });

  test('without a report nothing is in force and the foreground is never read', () => {
    const reports = new SelfReport();
    const read = jest.fn(jobIs(JOB));
    expect(reports.inForce(read)).toBeUndefined();
    expect(read).not.toHaveBeenCalled();
  });
});
