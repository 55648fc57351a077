import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ParleyMetrics } from '../../src/observability/metrics.ts';
import { UsageMetrics } from '../../src/usage/usage-metrics.ts';

interface Panel {
  type: string;
  title: string;
  targets?: { expr: string }[];
}

const dashboard = JSON.parse(readFileSync(new URL('../../docs/grafana-dashboard.json', import.meta.url), 'utf8')) as {
  title: string;
  panels: Panel[];
};
/** Every metric an instance exports: ParleyMetrics', and the ones modules count on its registry. */
function instanceRegistry() {
  const { registry } = new ParleyMetrics();
  new UsageMetrics(registry, 'USD');
  return registry;
}
const metricNames = new Set(instanceRegistry().getMetricsAsArray().map((metric) => metric.name));
const HISTOGRAM_SERIES = /_(bucket|count|sum)$/;

/** The metric each `parley_…` series of an expression belongs to (a histogram's _bucket is its histogram's). */
function metricsPlotted(expr: string): string[] {
  return [...expr.matchAll(/\bparley_[a-z0-9_]+/g)].map(([series]) =>
    metricNames.has(series) ? series : series.replace(HISTOGRAM_SERIES, ''),
  );
}

describe('the Grafana dashboard (docs/grafana-dashboard.json)', () => {
  const graphs = dashboard.panels.filter((panel) => panel.type !== 'row');
  const plotted = graphs.flatMap((panel) => (panel.targets ?? []).flatMap((target) => metricsPlotted(target.expr)));

  it('is a dashboard with a query on every graph', () => {
    expect(dashboard.title).toBe('Parley');
    expect(graphs.length).toBeGreaterThan(10);
    for (const panel of graphs) expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
  });

  it('plots only metrics Parley exports', () => {
    for (const metric of plotted) expect(metricNames, metric).toContain(metric);
  });

  it('plots every metric of Parley’s own', () => {
    const own = [...metricNames].filter((name) => !name.startsWith('parley_process_') && !name.startsWith('parley_nodejs_'));
    for (const metric of own) expect(plotted, metric).toContain(metric);
  });
});

describe('docs/operating.md', () => {
  const section = readFileSync(new URL('../../docs/operating.md', import.meta.url), 'utf8');

  it('documents every metric of Parley’s own, with its labels', () => {
    for (const metric of instanceRegistry().getMetricsAsArray()) {
      if (metric.name.startsWith('parley_process_') || metric.name.startsWith('parley_nodejs_')) continue;
      const row = section.split('\n').find((line) => line.startsWith(`| \`${metric.name}\` |`));
      expect(row, metric.name).toBeDefined();
      const labels = (metric as unknown as { labelNames: string[] }).labelNames;
      for (const label of labels) expect(row, `${metric.name} label ${label}`).toContain(`\`${label}\``);
    }
  });

});
