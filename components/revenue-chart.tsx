"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMoney } from "@/lib/dashboard/money";

export interface RevenuePoint {
  /** `YYYY-MM-DD`. */
  day: string;
  /** Minor units, exact. */
  amount: string;
  count: number;
}

const dayFormat = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
const longDayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });

export function formatDay(day: string, long = false): string {
  return (long ? longDayFormat : dayFormat).format(new Date(`${day}T00:00:00Z`));
}

/**
 * Daily revenue as bars. Bar heights need numbers (a float is fine for drawing); every label and
 * tooltip is formatted from whole minor units (the axis ticks are whole: allowDecimals false), and
 * the tooltip shows the exact amount string.
 */
export function RevenueChart({ points, currency }: { points: RevenuePoint[]; currency: string }) {
  const data = points.map((point) => ({ ...point, value: Number(point.amount) }));
  return (
    <figure aria-label={`Revenue per day, in ${currency}`} className="h-72 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
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
            allowDecimals={false}
            tickFormatter={(value: number) => formatMoney(String(Math.round(value)), currency)}
            tick={{ fontSize: 12, fill: "#475569" }}
            tickLine={false}
            axisLine={false}
            width={96}
          />
          <Tooltip
            cursor={{ fill: "#eef5ff" }}
            labelFormatter={(day) => formatDay(String(day), true)}
            formatter={(_value, _name, item) => {
              const point = item.payload as RevenuePoint;
              return [
                `${formatMoney(point.amount, currency)} · ${point.count} transaction${point.count === 1 ? "" : "s"}`,
                "Revenue",
              ];
            }}
          />
          <Bar dataKey="value" name="Revenue" fill="#3b6ef5" radius={[3, 3, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
