/**
 * deploy/prometheus as shipped, checked by promtool (Debian package "prometheus"): the scrape
 * configuration and rule files are valid, their unit tests pass, every alert has a case where it
 * fires and one where it stays quiet, every recording rule is evaluated by a test, and taking any
 * one rule out of its file makes the unit tests fail (so no rule is shipped untested).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { requireCommand } from '../support/system-deps.ts';

const DIR = new URL('../../deploy/prometheus/', import.meta.url).pathname;
const RULE_FILES = ['recording-rules.yml', 'alert-rules.yml'] as const;
const TEST_FILES = ['tests/recording-rules.test.yml', 'tests/alert-rules.test.yml'] as const;
const promtool = requireCommand('the Prometheus rule tests', 'promtool', 'prometheus');
const run = promisify(execFile);

/** promtool's exit code and output (it exits 1 when a check or test fails). */
async function promtoolIn(dir: string, ...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(promtool, args, { cwd: dir });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

/**
 * The rules of a rule file as written: each starts at a `- alert:` or `- record:` line of the
 * group's rule list and runs to the next one. The files are ours and written in this one layout.
 */
function rulesOf(text: string): Array<{ kind: 'alert' | 'record'; name: string; text: string }> {
  const starts = [...text.matchAll(/^ {6}- (alert|record): (\S+)$/gm)];
  return starts.map((match, i) => ({
    kind: match[1] as 'alert' | 'record',
    name: match[2]!,
    text: text.slice(match.index, starts[i + 1]?.index ?? text.length),
  }));
}

const ruleText = (file: string) => readFileSync(join(DIR, file), 'utf8');
const alertTests = readFileSync(join(DIR, 'tests/alert-rules.test.yml'), 'utf8');
const recordingTests = readFileSync(join(DIR, 'tests/recording-rules.test.yml'), 'utf8');
const alerts = rulesOf(ruleText('alert-rules.yml')).filter((rule) => rule.kind === 'alert');
const records = rulesOf(ruleText('recording-rules.yml')).filter((rule) => rule.kind === 'record');

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe('deploy/prometheus with promtool', () => {
  it('the scrape configuration and both rule files are valid', async () => {
    const config = await promtoolIn(DIR, 'check', 'config', 'prometheus.yml');
    expect(config.output).toContain('SUCCESS: prometheus.yml is valid');
    expect(config.code).toBe(0);
    const rules = await promtoolIn(DIR, 'check', 'rules', ...RULE_FILES);
    expect(rules.code, rules.output).toBe(0);
  });

  it('ships the rules the operator is told of', () => {
    expect(alerts.map((a) => a.name)).toHaveLength(10);
    expect(records.map((r) => r.name)).toHaveLength(8);
  });

  it('passes its unit tests', async () => {
    const result = await promtoolIn(DIR, 'test', 'rules', ...TEST_FILES);
    expect(result.output).not.toContain('FAILED');
    expect(result.code, result.output).toBe(0);
  });

  it.each(alerts.map((a) => a.name))('tests alert %s firing and staying quiet', (name) => {
    const cases = [...alertTests.matchAll(/alertname: (\S+)\n\s+exp_alerts:(.*)\n(\s+- exp_labels)?/g)];
    const mine = cases.filter((c) => c[1] === name);
    expect(
      mine.some((c) => c[2] === ' []'),
      'a case where it stays quiet',
    ).toBe(true);
    expect(
      mine.some((c) => c[2] === '' && c[3] !== undefined),
      'a case where it fires',
    ).toBe(true);
  });

  it.each(records.map((r) => r.name))('tests recording rule %s', (name) => {
    expect(recordingTests).toMatch(new RegExp(`- expr: (round\\()?${name.replace(/[:]/g, '\\:')}[,\\n]`));
  });

  it.each([...alerts, ...records].map((rule) => [rule.name, rule] as const))(
    'fails its unit tests without %s',
    async (_name, rule) => {
      const copy = mkdtempSync(join(tmpdir(), 'prometheus-rules-'));
      copies.push(copy);
      cpSync(DIR, copy, { recursive: true });
      const file = rule.kind === 'alert' ? 'alert-rules.yml' : 'recording-rules.yml';
      writeFileSync(join(copy, file), ruleText(file).replace(rule.text, ''));
      const result = await promtoolIn(copy, 'test', 'rules', ...TEST_FILES);
      expect(result.code, result.output).not.toBe(0);
      expect(result.output).toContain('FAILED');
    },
  );
});
