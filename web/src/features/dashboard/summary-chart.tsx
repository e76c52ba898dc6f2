import type { ChartSeries } from '../../components/charts/time-chart';
import { TimeChart } from '../../components/charts/time-chart';
import { formatDate, formatMoney } from '../../lib/format';
import './summary-chart.css';

/** A dashboard page's summary over time (the time chart, dates on its axis). */
export const SummaryChart = ({
  title,
  series,
  empty,
}: {
  title: string;
  series: readonly ChartSeries[];
  empty: string;
}) => (
  <div className="card summary-chart">
    <TimeChart
      title={title}
      series={series}
      formatValue={formatMoney}
      formatTime={(t) => formatDate(new Date(t).toISOString())}
      empty={empty}
      height={200}
    />
  </div>
);
