"use client";

import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatDay } from "./revenue-chart";

/** One series of a metric chart: bars (stacked when they share `stack`) or a line. */
export interface MetricSeries {
  /** The point's field holding the value to draw (a number). */
  key: string;
  name: string;
  color: string;
  kind: "bar" | "line";
  stack?: string;
  /** The right-hand axis (a rate beside counts). */
  right?: boolean;
}

/** A point: its day (`YYYY-MM-DD`), the numbers drawn, and the exact texts the tooltip shows. */
export type MetricChartPoint = { day: string; labels: Record<string, string> } & Record<string, unknown>;

/**
 * A day-by-day chart of one metric: bars and lines over the days of the account's time zone. Heights need numbers (a float is
 * fine for drawing); every tooltip shows the point's exact text from the API (`labels`), and the
 * axes are formatted by `format` (and `formatRight`).
 */
export function MetricChart({
  label,
  points,
  series,
  format,
  formatRight,
  height = "h-72",
}: {
  /** Tailwind height class of the figure. */
  height?: string;
  label: string;
  points: MetricChartPoint[];
  series: MetricSeries[];
  format: (value: number) => string;
  formatRight?: (value: number) => string;
}) {
  const hasRight = series.some((s) => s.right);
  return (
    <figure aria-label={label} className={`${height} w-full`}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={points} margin={{ top: 8, right: 8, bottom: 8, left: 8 }} stackOffset="sign">
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
          <XAxis
            dataKey="day"
            tickFormatter={(day: string) => formatDay(day)}
            tick={{ fontSize: 12, fill: "#475569" }}
            tickLine={false}
            axisLine={{ stroke: "#cbd5e1" }}
            minTickGap={24}
          />
          <YAxis
            yAxisId="left"
            allowDecimals={false}
            tickFormatter={(value: number) => format(value)}
            tick={{ fontSize: 12, fill: "#475569" }}
            tickLine={false}
            axisLine={false}
            width={96}
          />
          {hasRight && (
            <YAxis
              yAxisId="right"
              orientation="right"
              tickFormatter={(value: number) => (formatRight ?? format)(value)}
              tick={{ fontSize: 12, fill: "#475569" }}
              tickLine={false}
              axisLine={false}
              width={56}
            />
          )}
          <ReferenceLine yAxisId="left" y={0} stroke="#94a3b8" />
          <Tooltip
            cursor={{ fill: "#eef5ff" }}
            labelFormatter={(day) => formatDay(String(day), true)}
            formatter={(_value, name, item) => {
              const point = item.payload as MetricChartPoint;
              const s = series.find((candidate) => candidate.name === name);
              return [s ? (point.labels[s.key] ?? String(_value)) : String(_value), name];
            }}
          />
          {series.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
          {series.map((s) =>
            s.kind === "bar" ? (
              <Bar
                key={s.key}
                yAxisId={s.right ? "right" : "left"}
                dataKey={s.key}
                name={s.name}
                fill={s.color}
                stackId={s.stack}
                isAnimationActive={false}
              />
            ) : (
              <Line
                key={s.key}
                yAxisId={s.right ? "right" : "left"}
                dataKey={s.key}
                name={s.name}
                stroke={s.color}
                strokeWidth={2}
                dot={false}
                type="linear"
                isAnimationActive={false}
              />
            ),
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
