package dev.memplan.baselines.allocation.minimalloc;

/**
 * A stable sort of int arrays under a comparator, without boxing: insertion sort for short runs, merge sort
 * above. The search sorts its candidates at every node, so this stays allocation-free given a scratch array.
 */
final class IntSort {

    /** Orders two ints; negative, zero or positive as for {@link java.util.Comparator}. */
    interface Order {
        int compare(int a, int b);
    }

    private static final int INSERTION_LIMIT = 24;

    private IntSort() {
    }

    /** Sorts {@code a[from, to)} stably; {@code scratch} must hold at least {@code to - from} ints. */
    static void sort(int[] a, int from, int to, Order order, int[] scratch) {
        if (to - from <= INSERTION_LIMIT) {
            insertion(a, from, to, order);
            return;
        }
        int mid = (from + to) >>> 1;
        sort(a, from, mid, order, scratch);
        sort(a, mid, to, order, scratch);
        if (order.compare(a[mid - 1], a[mid]) <= 0) {
            return;
        }
        System.arraycopy(a, from, scratch, 0, mid - from);
        int i = 0;
        int iEnd = mid - from;
        int j = mid;
        int k = from;
        while (i < iEnd && j < to) {
            a[k++] = order.compare(a[j], scratch[i]) < 0 ? a[j++] : scratch[i++];
        }
        while (i < iEnd) {
            a[k++] = scratch[i++];
        }
    }

    private static void insertion(int[] a, int from, int to, Order order) {
        for (int i = from + 1; i < to; i++) {
            int x = a[i];
            int j = i - 1;
            while (j >= from && order.compare(a[j], x) > 0) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = x;
        }
    }
}
