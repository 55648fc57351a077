import type { ClientUsageFieldsFragment as Usage } from '@parley/client';
import { useMessages } from './i18n.ts';
import { formatCost } from './usage-format.ts';
import { daysOf, type DayRange } from './usage-range.ts';

/** The drawing's own units: one slot per day, bars scaled to the highest day. */
const SLOT = 10;
const BAR = 8;
const HEIGHT = 100;

/**
 * Spend per day as an inline SVG bar per day of the range (days without calls have none). Only SVG
 * geometry attributes and the stylesheet's classes: the page's CSP allows no inline style. Each
 * day's exact amount is its bar's title (shown on hover; the Per day table has them for the
 * keyboard and screen readers); only the heights come from floats, which decide how tall a bar looks.
 */
export function SpendChart({ range, days }: { range: DayRange; days: readonly { day?: string | null; usage: Usage }[] }) {
  const t = useMessages();
  const byDay = new Map(days.map((row) => [row.day, row.usage]));
  const shown = daysOf(range);
  const valueOf = (usage: Usage | undefined) => (usage ? Number(usage.pricedCost.amount) : 0);
  const highest = Math.max(0, ...shown.map((day) => valueOf(byDay.get(day))));
  return (
    <figure className="usage-chart">
      <figcaption>{t.spendPerDay}</figcaption>
      <svg
        viewBox={`0 0 ${shown.length * SLOT} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={t.spendChart(range.from, range.to)}
      >
        <line className="usage-baseline" x1={0} y1={HEIGHT} x2={shown.length * SLOT} y2={HEIGHT} />
        {shown.map((day, index) => {
          const usage = byDay.get(day);
          // A day with calls shows at least a sliver, however small beside the highest.
          const height = usage && highest > 0 ? Math.max(1, (valueOf(usage) / highest) * HEIGHT) : usage ? 1 : 0;
          return (
            <g key={day} data-day={day} className={usage ? 'usage-day' : 'usage-day empty'}>
              <title>{t.daySpend(day, usage ? formatCost(usage, t) : '–')}</title>
              <rect className="usage-slot" x={index * SLOT} y={0} width={SLOT} height={HEIGHT} />
              {height > 0 && <rect className="usage-bar" x={index * SLOT + (SLOT - BAR) / 2} y={HEIGHT - height} width={BAR} height={height} />}
            </g>
          );
        })}
      </svg>
      <div className="usage-axis" aria-hidden="true">
        <span>{range.from}</span>
        <span>{range.to}</span>
      </div>
    </figure>
  );
}
