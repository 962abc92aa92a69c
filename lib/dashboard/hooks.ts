/**
 * The kit of TanStack Query hooks over the API, the dashboard's only data path: a list page, one
 * entity, a save. Each resource's hooks sit in its own module (customers.ts, api-keys.ts,
 * subscriptions.ts…), their query keys starting with the resource, so a mutation invalidates every
 * list and detail of what it changed.
 */
import { keepPreviousData, type QueryKey, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type ListResponse, query } from "./api.ts";

export interface EntityResponse<T> {
  data: T;
  meta: { request_id: string };
}

export type ListParams = Record<string, string | number | undefined | null>;

/** Newest first: IDs sort by creation time. */
export const NEWEST_FIRST = "id[DESC]";

/**
 * How often to fetch again (ms), given what is on screen, or false to stop: for things that change
 * on their own (a delivery under way). Browsers poll only while the tab is visible.
 */
export type Poll<D> = (data: D | undefined) => number | false;

/** One page of a list endpoint. The previous page stays on screen while the next one loads. */
export function useList<T>(
  key: QueryKey,
  path: string,
  params: ListParams,
  enabled = true,
  poll?: Poll<ListResponse<T>>,
) {
  return useQuery<ListResponse<T>>({
    queryKey: [...key, params],
    queryFn: () => api<ListResponse<T>>(`${path}${query(params)}`),
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: poll && ((q) => poll(q.state.data)),
  });
}

export function useEntity<T>(key: QueryKey, path: string, poll?: Poll<T>) {
  return useQuery<T>({
    queryKey: key,
    queryFn: async () => (await api<EntityResponse<T>>(path)).data,
    refetchInterval: poll && ((q) => poll(q.state.data)),
  });
}

export function useSave<I, T>(
  send: (input: I) => Promise<T>,
  invalidate: (result: T) => QueryKey[],
  setDetail?: (result: T) => QueryKey,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: async (result) => {
      const detailKey = setDetail?.(result);
      if (detailKey) client.setQueryData(detailKey, result);
      await Promise.all(invalidate(result).map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });
}

export const enc = encodeURIComponent;
