package dev.memplan.decomposition;

import dev.memplan.formulations.cosma.RecomputeBound;
import dev.memplan.model.Graph;
import dev.memplan.model.Limits;
import dev.memplan.model.Budget;
import dev.memplan.model.Shares;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A lower bound on the non-compulsory traffic of every plan with a free schedule, from the bytes that every order
 * must hold live at some timestep.
 *
 * <p>The argument: at a timestep t of any plan, call a tensor live when it is an input or output of the operator
 * at t, or was written (a host tensor: first read) before t and is read after t. The operator's inputs and
 * outputs must be resident. A live tensor that is not resident at t is read after t, so it is loaded again after t,
 * and that load is charged: its tensor was on chip before. A tensor written by an operator that is not a graph
 * output also paid a spill to have a host copy. So if F bytes are live at t, at least E = F - B of them are off chip,
 * and the plan pays at least E + max(0, E - H). Here H is the live bytes at t, other than the operator's own, that
 * can leave at the price of a load alone (host tensors and graph outputs). The plan's traffic is at least the most
 * this costs at any timestep of its order, hence at least the least such maximum over all orders.
 *
 * <p>That least maximum is bounded from below by an exact dynamic program over the sets of finished operators (the
 * down-sets), layer by layer as in the minimum-peak scheduler, but without cutting any layer: every order passes
 * through exactly one down-set of each size k. A state holds the least cost any order has up to its down-set, so
 * the least value in a complete layer is a lower bound. States whose value reaches a target (the traffic of the
 * best plan known) are dropped: they cannot lead below it. If a whole layer is dropped, no order costs less than the
 * target, and the target is the bound: the best plan is proven optimal. The layers grow quickly in a wide graph.
 * The program stops at a state or time cap and keeps the bound of the last complete layer (at most the target). It
 * runs from the start of the graph (down-sets) and from the end (up-sets, the operators still to run), since a
 * network's pressure is often in its stem or its head. Alignment is ignored (padding only adds bytes), so the
 * bound stays valid with it.
 */
public final class PeakBound {
    /** Most states in one layer before the program stops. */
    public static final int DEFAULT_STATE_CAP = 200_000;

    /**
     * The bound and how far the two programs got.
     *
     * @param traffic the lower bound on the non-compulsory traffic
     * @param proven true when a program dropped a whole layer: no plan costs less than the target
     * @param forwardLayers complete layers from the start of the graph
     * @param backwardLayers complete layers from its end
     */
    public record Result(long traffic, boolean proven, int forwardLayers, int backwardLayers) {
    }

    private PeakBound() {
    }

    /**
     * @param g the graph in its tensor setting
     * @param budget the budget B
     * @param target the traffic of the best plan known (Long.MAX_VALUE: none): states that reach it are dropped
     * @param stateCap most states per layer
     * @param limits the budget of both directions together
     */
    public static Result of(Graph g, long budget, long target, int stateCap, Limits limits) {
        return of(g, null, budget, target, stateCap, limits);
    }

    /**
     * The bound as above with each live tensor that leaves the chip charged at {@code prices} instead of its size once
     * or twice: the least of these covering the bytes over the budget, by price per byte, cheapest first (a fractional
     * knapsack cover, which with the spill-only prices is the E + max(0, E - H) above; raised where the tensors that
     * leave must leave whole, {@link WholeCover}, and with E rounded up to the gcd of the sizes that free it, {@link
     * Cheap}; the bound without prices stays fractional). The argument holds for
     * any nonnegative prices: at the timestep it is charged, each tensor off chip pays its return after it and its
     * spill once. With reruns ({@link TrafficPrices#withReruns}; reruns only of operators that may pay, by
     * {@link dev.memplan.formulations.cosma.Reruns#mayPay}, lose nothing), a tensor off chip at the first run of o
     * comes back after it by a load, after one spill, or by a rerun of its producer p, which pays its share and needs
     * p's inputs on chip at the rerun: an input that no first run after o reads is then either on chip through o
     * (its bytes are not free for the cover) or brought back after o (its own return): {@code Cheap} prices these
     * options, so the bound holds over every plan, reruns allowed, with each first run's timestep as the moment. In
     * the forward direction a fan-out's rerun that the cover grants at one moment is followed to the first reader of
     * its outputs ({@link FanOutCases}): either no rerun before it (its first-read output pays its load and spill) or
     * the rerun's cost is charged again at every later moment.
     *
     * @param prices the prices of g's tensors, or null for the non-compulsory traffic
     */
    static Result of(Graph g, TrafficPrices prices, long budget, long target, int stateCap, Limits limits) {
        return of(g, prices, budget, target, stateCap, limits, true);
    }

    /** As above; without {@code cases} the fan-outs' cases ({@link FanOutCases}) are left out (for tests). */
    static Result of(Graph g, TrafficPrices prices, long budget, long target, int stateCap, Limits limits,
                     boolean cases) {
        return of(g, prices, budget, target, stateCap, limits, cases, true);
    }

    /**
     * As above; without {@code joint} a fan-out's outputs leave the whole cover one by one, each by its own hull
     * ({@link Cheap}'s groups left out, for tests).
     */
    static Result of(Graph g, TrafficPrices prices, long budget, long target, int stateCap, Limits limits,
                     boolean cases, boolean joint) {
        return of(g, prices, budget, target, stateCap, limits, cases, joint, true);
    }

    /**
     * As above; without {@code ahead} a fan-out's second case charges its rerun to the later moments only, not to the
     * path's moments before it ({@link FanOutCases#ahead}, for tests).
     */
    static Result of(Graph g, TrafficPrices prices, long budget, long target, int stateCap, Limits limits,
                     boolean cases, boolean joint, boolean ahead) {
        return of(g, prices, budget, target, stateCap, limits, cases, joint, ahead, true);
    }

    /**
     * As above; without {@code grid} the priced covers take the bytes over the budget as they are, not rounded up to
     * the sizes' gcd ({@link RecomputeBound#onUnit}, for tests).
     */
    static Result of(Graph g, TrafficPrices prices, long budget, long target, int stateCap, Limits limits,
                     boolean cases, boolean joint, boolean ahead, boolean grid) {
        long began = System.nanoTime();
        // nanoTime may be near any value: compare elapsed times, never sums with a far-off sentinel.
        java.time.Duration wall = limits.budget().wallLeft();
        long half = wall == null ? Long.MAX_VALUE / 4 : wall.toNanos() / Shares.BOUND_DIRECTIONS;
        // Under a work limit: each direction its part of the work, counted in operator checks, no clock.
        Limits step = limits.workMode() ? limits.child() : limits;
        Budget.Meter forwardMeter = step.workMode()
                ? step.budget().splitWork(Shares.BOUND_DIRECTIONS).meter(CHECKS_PER_UNIT) : null;
        Cheap cheap = prices == null ? null : new Cheap(g, prices, joint, grid);
        long[] forward = new Direction(g, budget, target, false, stateCap,
                new Stop(began, half, limits, forwardMeter), cheap,
                cheap == null || !cases ? null : FanOutCases.of(g, cheap, ahead)).run();
        if (forward[2] == 1) {
            return new Result(forward[0], true, (int) forward[1], 0);
        }
        Budget.Meter backwardMeter = step.workMode() ? step.budget().meter(CHECKS_PER_UNIT) : null;
        long[] backward = new Direction(g, budget, target, true, stateCap,
                new Stop(began, 2 * half, limits, backwardMeter), cheap, null).run();
        return new Result(Math.max(forward[0], backward[0]), backward[2] == 1, (int) forward[1], (int) backward[1]);
    }

    /** Operator checks (one ready test of one operator in one state) per work unit. */
    static final long CHECKS_PER_UNIT = 50_000_000L;

    /**
     * When a direction stops: at {@code allowed} nanoseconds after {@code began}, or, with a meter (under a work
     * limit), when its work is spent; and whenever the budget of {@code limits} is stopped.
     */
    private record Stop(long began, long allowed, Limits limits, Budget.Meter meter) {
    }

    /**
     * With prices: the tensors that may leave for less than twice their size, cheapest per byte first at each state.
     * A tensor x whose producer may not pay ({@code rerun[x] < 0}) pays its load and spill prices; one whose producer
     * p may pays the least of a real load and spill (its size, and its size again unless a graph output) and a rerun:
     * its part of lambda c(p), plus, for each input y of p that is dead at the moment (no first run after it reads y)
     * and not the operator's own, either y's room (y is kept on chip through the moment, its bytes taken from what x
     * covers) or y's return after the moment: a load after a spill, or, when y's producer q may pay, a rerun of q
     * (y's own share), which needs q's inputs on chip in turn (the second level, forward only): each input z of q
     * that is dead at the moment, not the operator's own, not live, not itself a first-level dead input, and whose
     * producer may not pay, is then kept through the moment (room) or comes back after it by a load after a spill
     * (by {@code Reruns.mayPay} some optimal plan never reruns z's producer); every other input of q counts as free.
     * Each option is a (price, bytes covered) pair. A plan frees b of x's bytes at the moment by one of these ways (x
     * on chip: none), paying at least that way's price, so it pays at least the lower convex hull of the points
     * (0, 0), (x's load and spill, all its bytes) and the options, at b; the hull's steps have rising prices per byte,
     * so covering the excess by steps, the cheapest per byte first, is still a fractional knapsack, its least a lower
     * bound. (Before, x took its least price per byte over all its bytes, below the hull: keeping y frees only part
     * of x's bytes at that price.)
     * Where one of x's ways (its load, or a rerun option) frees at least the bytes of every other for at most its
     * price, x leaves whole by it or stays, and the cover is solved with such tensors whole ({@link WholeCover}):
     * a plan's choice at the moment frees whole tensors, and any other way of such an x is replaced by the one
     * that frees more for less. The others keep the fractional treatment, except a fan-out's live outputs, which
     * the whole cover takes jointly ({@link #groups}: freeing one copy by the rerun frees nothing while its input
     * stays, which each copy's hull, with half the input's room, did not see).
     *
     * <p>Who pays what, at one moment (so that together the tensors never charge more than the plan pays after it):
     * one rerun of p after the moment costs lambda c(p), and the only tensors this moment's cover can charge against
     * it are p's outputs that are live there (each may be brought back by it) and p's outputs that are dead inputs of
     * another live tensor's rerun (their return may be priced at their share). Call these p's outputs <i>claimed</i>
     * at the moment; the shares of the others ({@link TrafficPrices#withReruns}: they sum with the claimed ones' to at
     * most lambda c(p)) are charged by no one, so they are handed to p's live outputs in proportion to their bytes,
     * rounded down. A lone live output of an operator whose other outputs are dead and feed no rerun (a gradient's
     * fan-out, once its other copy is read) then pays its producer's whole rerun. Likewise a dead input y is charged,
     * 1/k of its return or its room each, rounded down, only to the k live tensors at the moment whose producer
     * reads y: together they never pay more than y's one return or its bytes once. A second-level input z is charged
     * 1/j of its load and spill or its room to each of the j first-level dead inputs whose producer reads it (and so
     * on to their sharers): together never more than z's one return or its bytes once.
     */
    static final class Cheap {
        /** Most dead inputs whose room-or-return choices are enumerated; beyond, the rerun is priced at its share. */
        private static final int MOST_INPUTS = 4;

        private final Graph g;
        private final int[] tensors;
        /** The other tensors with bytes: each leaves at twice its size, and the largest such price of all. */
        private final int[] dear;
        private final long mostFull;
        private final long[] full;
        private final long[] rerun;
        /** Per tensor with a rerun price, its producer's distinct inputs. */
        private final int[][] inputs;
        /** Per tensor, at the moment being priced: the stamp when live and not own, when claimed, and its sharers. */
        private final int[] liveAt;
        private final int[] claimedAt;
        private final int[] sharersAt;
        private final int[] sharers;
        /** Per tensor, the stamp when a dead input of a needed input's producer, and how many such inputs need it. */
        private final int[] usersAt;
        private final int[] users;
        /** Per tensor, the stamp when it is priced at its load and spill alone ({@link FanOutCases}' first read). */
        private final int[] fullAt;
        private int stamp;
        /** The gcd of the sizes {@link #mark} marked last: the live priced tensors and the inputs a cover may hold. */
        private long marked;

        /** Whether a fan-out's outputs leave the whole cover jointly ({@link #groups}). */
        private final boolean joint;
        /** Whether the bytes over the budget are rounded up to the sizes' gcd ({@link RecomputeBound#onUnit}). */
        private final boolean grid;
        /**
         * An operator whose reruns the cover takes as paid already (their shares 0: {@link FanOutCases}' earlier
         * moments charge one of its reruns apart), or -1.
         */
        private int paid = -1;

        Cheap(Graph g, TrafficPrices prices) {
            this(g, prices, true);
        }

        Cheap(Graph g, TrafficPrices prices, boolean joint) {
            this(g, prices, joint, true);
        }

        Cheap(Graph g, TrafficPrices prices, boolean joint, boolean grid) {
            this.g = g;
            this.joint = joint;
            this.grid = grid;
            int m = g.tensorCount();
            full = new long[m];
            rerun = prices.rerun();
            inputs = new int[m][];
            List<Integer> list = new ArrayList<>();
            List<Integer> others = new ArrayList<>();
            long most = 0;
            for (int x = 0; x < m; x++) {
                boolean spills = g.producer(x) >= 0 && !g.isGraphOutput(x);
                full[x] = rerun[x] >= 0 ? g.size(x) + (spills ? g.size(x) : 0)
                        : prices.load()[x] + (spills ? prices.spill()[x] : 0);
                if (rerun[x] >= 0) {
                    inputs[x] = Arrays.stream(g.inputs(g.producer(x))).distinct().toArray();
                }
                if (g.size(x) > 0 && (rerun[x] >= 0 || full[x] < 2 * g.size(x))) {
                    list.add(x);
                } else if (g.size(x) > 0) {
                    others.add(x);
                }
                most = Math.max(most, full[x]);
            }
            tensors = list.stream().mapToInt(Integer::intValue).toArray();
            dear = others.stream().mapToInt(Integer::intValue).toArray();
            mostFull = most;
            liveAt = new int[m];
            claimedAt = new int[m];
            sharersAt = new int[m];
            sharers = new int[m];
            usersAt = new int[m];
            users = new int[m];
            fullAt = new int[m];
        }

        long[] rerun() {
            return rerun;
        }

        /** Takes operator f's reruns as paid (-1: none) in the covers that follow. */
        void paid(int f) {
            paid = f;
        }

        /** y's share of its producer's rerun, 0 where that rerun is taken as paid ({@link #paid}). */
        private long rerunPrice(int y) {
            return g.producer(y) == paid ? 0 : rerun[y];
        }

        int size() {
            return tensors.length;
        }

        /**
         * The least price of {@code excess} bytes (rounded up to the gcd of the sizes of the live tensors and of the
         * inputs a cover may hold: a plan frees whole tensors) of the tensors live at {@code done} other than
         * operator o's own, fractionally, the cheapest per byte first (the rest at twice their size), each part
         * rounded down; raised to the cover with whole tensors ({@link WholeCover}: each tensor with one best way
         * off chip leaves whole) unless the fractional one already reaches {@code target} or, with a tensor's price
         * to spare, stays at or below {@code floor} (the state's value so far, which the whole cover would then not
         * raise). The tensors {@code firstRead} are priced at their load and spill alone and claim no rerun
         * ({@link FanOutCases}).
         */
        long cover(long[] done, int o, boolean reverse, long excess, long floor, long target, int[] firstRead) {
            int[] own = own(g, o);
            stamp++;
            for (int x : firstRead) {
                fullAt[x] = stamp;
            }
            List<Integer> live = mark(done, own, reverse);
            List<Integer> dearLive = new ArrayList<>();
            long unit = marked;
            for (int x : dear) {
                if (!contains(own, x) && isLive(g, x, done, reverse)) {
                    dearLive.add(x);
                    unit = RecomputeBound.gcd(unit, g.size(x));
                }
            }
            // At the moment the live tensors off chip, less the needed inputs held through it (room), free at least
            // the excess, and both are sums of whole sizes: with unit the gcd of the sizes of the live tensors and of
            // every input a cover may hold (mark's first and second levels), what they free is a multiple of it, so at
            // least the excess rounded up to it (RecomputeBound.onUnit). Every option keeps its price and bytes (a
            // room shared by k sharers is charged at most its size in all), so each plan's choice covers the rounded
            // excess too. A plan may hold other dead tensors: they only add to what the live tensors off free.
            excess = grid ? RecomputeBound.onUnit(excess, unit) : excess;
            List<long[]> items = new ArrayList<>();
            for (int x : live) {
                if (rerun[x] >= 0 && fullAt[x] != stamp) {
                    items.addAll(envelope(x));
                } else {
                    items.add(new long[] {full[x], g.size(x), g.size(x), x});
                }
            }
            // Stable: a tensor's steps keep their order (their prices per byte do not fall).
            items.sort((a, b) -> ratio(a, b));
            long fractional = fractional(items, excess);
            if (fractional >= target || fractional + 2 * mostFull <= floor) {
                return fractional;
            }
            return Math.max(fractional, whole(dearLive, excess, items));
        }

        /**
         * The cover with the tensors whose producer may not pay leaving whole ({@link WholeCover}), the others as in
         * the fractional cover, except a fan-out's live outputs, which leave by one of their joint ways
         * ({@link #groups}); -1 when the search is cut short.
         */
        private long whole(List<Integer> dearLive, long excess, List<long[]> items) {
            List<long[]> fixed = new ArrayList<>();
            List<long[]> continuous = new ArrayList<>();
            java.util.Set<Integer> whole = new java.util.HashSet<>();
            Map<Integer, List<long[]>> groups = groups(items);
            for (long[] it : items) {
                int x = (int) it[3];
                if (rerun[x] < 0 || fullAt[x] == stamp) {
                    fixed.add(new long[] {g.size(x), full[x]});
                } else if (whole.contains(x) || groups.containsKey(g.producer(x))) {
                    continue; // a later step of a tensor that leaves whole, or a fan-out's output left jointly
                } else {
                    long[] one = dominant(x);
                    if (one != null) {
                        fixed.add(one);
                        whole.add(x);
                    } else {
                        continuous.add(it);
                    }
                }
            }
            for (int x : dearLive) {
                fixed.add(new long[] {g.size(x), 2 * g.size(x)});
            }
            if (groups.isEmpty()) {
                return WholeCover.of(fixed, continuous, excess);
            }
            long room = 0;
            for (long[] f : fixed) {
                room += f[0];
            }
            for (long[] c : continuous) {
                room += c[2];
            }
            List<List<long[]>> ways = new ArrayList<>(groups.values());
            int combos = 1;
            for (List<long[]> w : ways) {
                combos *= w.size();
            }
            long least = -1;
            for (int c = 0; c < combos; c++) {
                List<long[]> chosen = new ArrayList<>(fixed);
                long bytes = room;
                int rest = c;
                for (List<long[]> w : ways) {
                    long[] way = w.get(rest % w.size());
                    rest /= w.size();
                    if (way[0] > 0) {
                        chosen.add(way);
                        bytes += way[0];
                    }
                }
                if (bytes < excess) {
                    continue; // no plan leaves the fan-outs' outputs so and covers the excess
                }
                long one = WholeCover.of(chosen, continuous, excess);
                if (one < 0) {
                    return -1;
                }
                least = least < 0 ? one : Math.min(least, one);
            }
            return least;
        }

        /** Most outputs of one fan-out left jointly, and most joint ways of all fan-outs at one moment. */
        private static final int MOST_JOINT = 4;
        private static final int MOST_COMBOS = 64;

        /**
         * The fan-outs whose outputs leave jointly at the moment, each with its ways {bytes, price} (none first):
         * an operator f with two to {@link #MOST_JOINT} outputs priced for reruns among {@code items}, and one to
         * {@link #MOST_INPUTS} dead inputs. Each output x is on chip, off by a load after a spill ({@code full[x]}),
         * or off by a rerun of f ({@code share(x)}); if any is made again, each dead input y of f is kept through the
         * moment or returned after it, one way for all ({@link #ways}, taken m times: y's m sharers among f's
         * outputs), its room taken from the bytes freed. A plan's choice at the moment is one of these ways, with
         * y's room or return charged once, so at least m/k of it (k sharers in all), where the per-output hull lets
         * one output claim a part of y's room that the others, on chip, do not free: freeing one copy by a rerun
         * frees nothing while y stays. Only the ways no other beats (at least the bytes for at most the price) are
         * kept; fan-outs whose ways multiply past {@link #MOST_COMBOS} keep the per-output hull.
         */
        private Map<Integer, List<long[]>> groups(List<long[]> items) {
            Map<Integer, List<Integer>> members = new java.util.LinkedHashMap<>();
            for (long[] it : items) {
                int x = (int) it[3];
                if (rerun[x] >= 0 && fullAt[x] != stamp) {
                    List<Integer> m = members.computeIfAbsent(g.producer(x), k -> new ArrayList<>());
                    if (!m.contains(x)) {
                        m.add(x);
                    }
                }
            }
            Map<Integer, List<long[]>> groups = new java.util.LinkedHashMap<>();
            if (!joint) {
                return groups;
            }
            int combos = 1;
            for (Map.Entry<Integer, List<Integer>> e : members.entrySet()) {
                List<Integer> outs = e.getValue();
                List<Integer> dead = new ArrayList<>();
                for (int y : inputs[outs.get(0)]) {
                    if (sharersAt[y] == stamp) {
                        dead.add(y);
                    }
                }
                if (outs.size() < 2 || outs.size() > MOST_JOINT || dead.isEmpty() || dead.size() > MOST_INPUTS) {
                    continue;
                }
                List<long[]> ways = jointWays(outs, dead);
                if (ways != null && combos * ways.size() <= MOST_COMBOS) {
                    combos *= ways.size();
                    groups.put(e.getKey(), ways);
                }
            }
            return groups;
        }

        /**
         * The ways of a fan-out's outputs {@code outs} with dead inputs {@code dead} ({@link #groups}), those no
         * other beats, {bytes, price}, none ({0, 0}) first; null past 4,096 of them.
         */
        private List<long[]> jointWays(List<Integer> outs, List<Integer> dead) {
            int m = outs.size();
            List<List<long[]>> inputWays = new ArrayList<>();
            int inputCombos = 1;
            for (int y : dead) {
                inputWays.add(ways(y));
                inputCombos *= inputWays.get(inputWays.size() - 1).size();
            }
            int assignments = (int) Math.pow(3, m);
            if ((long) assignments * inputCombos > 4_096) {
                return null;
            }
            List<long[]> all = new ArrayList<>();
            for (int a = 0; a < assignments; a++) {
                long bytes = 0;
                long price = 0;
                boolean made = false;
                int rest = a;
                for (int x : outs) {
                    int way = rest % 3; // 0 on chip, 1 loaded after a spill, 2 made again
                    rest /= 3;
                    if (way > 0) {
                        bytes += g.size(x);
                        price += way == 1 ? full[x] : share(x);
                        made |= way == 2;
                    }
                }
                for (int c = 0; c < (made ? inputCombos : 1); c++) {
                    long b = bytes;
                    long p = price;
                    int r = c;
                    for (int i = 0; made && i < inputWays.size(); i++) {
                        long[] w = inputWays.get(i).get(r % inputWays.get(i).size());
                        r /= inputWays.get(i).size();
                        p += m * w[0];
                        b -= m * w[1];
                    }
                    if (b > 0) {
                        all.add(new long[] {b, p});
                    }
                }
            }
            all.sort((u, v) -> u[0] != v[0] ? Long.compare(v[0], u[0]) : Long.compare(u[1], v[1]));
            List<long[]> kept = new ArrayList<>();
            long cheapest = Long.MAX_VALUE;
            for (long[] w : all) {
                if (w[1] < cheapest) {
                    kept.add(w);
                    cheapest = w[1];
                }
            }
            kept.add(0, new long[] {0, 0});
            return kept;
        }

        /** The fractional cover of {@code excess} bytes by {@code items}, sorted, the rest at twice its bytes. */
        private static long fractional(List<long[]> items, long excess) {
            long left = excess;
            long cost = 0;
            for (long[] it : items) {
                if (left == 0) {
                    break;
                }
                long a = Math.min(it[2], left);
                cost += timesOver(it[0], a, it[1]);
                left -= a;
            }
            return cost + 2 * left;
        }

        /**
         * The priced tensors live at the moment and not o's own, in index order; marks them, each dead input of their
         * producers with its number of sharers, and the outputs claimed (class comment) under the moment's stamp; a
         * tensor priced at its load alone ({@code fullAt}) claims no rerun and shares no input.
         */
        private List<Integer> mark(long[] done, int[] own, boolean reverse) {
            List<Integer> live = new ArrayList<>();
            marked = 0;
            for (int x : tensors) {
                if (!contains(own, x) && isLive(g, x, done, reverse)) {
                    live.add(x);
                    marked = RecomputeBound.gcd(marked, g.size(x));
                    liveAt[x] = stamp;
                    if (fullAt[x] != stamp) {
                        claimedAt[x] = stamp;
                    }
                }
            }
            List<Integer> needed = new ArrayList<>();
            for (int x : live) {
                if (rerun[x] >= 0 && fullAt[x] != stamp) {
                    for (int y : inputs[x]) {
                        if (liveAt[y] != stamp && !contains(own, y) && !isLive(g, y, done, reverse)) {
                            if (sharersAt[y] != stamp) {
                                needed.add(y);
                                marked = RecomputeBound.gcd(marked, g.size(y));
                            }
                            sharers[y] = sharersAt[y] == stamp ? sharers[y] + 1 : 1;
                            sharersAt[y] = stamp;
                            claimedAt[y] = stamp;
                        }
                    }
                }
            }
            for (int y : reverse ? List.<Integer>of() : needed) {
                if (inputs[y] != null) {
                    for (int z : inputs[y]) {
                        if (g.size(z) > 0 && rerun[z] < 0 && liveAt[z] != stamp && sharersAt[z] != stamp
                                && !contains(own, z) && !isLive(g, z, done, reverse)) {
                            users[z] = usersAt[z] == stamp ? users[z] + 1 : 1;
                            usersAt[z] = stamp;
                            marked = RecomputeBound.gcd(marked, g.size(z));
                        }
                    }
                }
            }
            return live;
        }

        /**
         * The ways of dead input y of a live tensor's rerun at the moment, each {price, room} already divided among
         * y's sharers: kept on chip through it (room), loaded after a spill, or made again by its producer's rerun,
         * which needs that producer's inputs: each one dead at the moment whose producer may not pay ({@link #mark}'s
         * second level) is kept through it (room) or comes back by a load after a spill, each charged 1/k to the k
         * dead inputs needing it; any other input is taken as free. Beyond {@link #MOST_INPUTS} such inputs, all
         * free.
         */
        private List<long[]> ways(int y) {
            int k = sharers[y];
            List<long[]> ways = new ArrayList<>();
            ways.add(new long[] {0, g.size(y) / k});
            ways.add(new long[] {full[y] / k, 0});
            if (rerun[y] < 0 || full[y] <= rerunPrice(y)) {
                return ways;
            }
            List<Integer> second = new ArrayList<>();
            for (int z : inputs[y]) {
                if (usersAt[z] == stamp) {
                    second.add(z);
                }
            }
            if (second.size() > MOST_INPUTS) {
                second.clear();
            }
            for (int room = 0; room < 1 << second.size(); room++) {
                long price = rerunPrice(y);
                long held = 0;
                for (int i = 0; i < second.size(); i++) {
                    int z = second.get(i);
                    if ((room & (1 << i)) != 0) {
                        held += g.size(z) / users[z];
                    } else {
                        price += full[z] / users[z];
                    }
                }
                ways.add(new long[] {price / k, held / k});
            }
            return ways;
        }

        /**
         * The rerun's (price, bytes covered) for each choice of room or return of its dead inputs that covers
         * something (one, at its share over all x's bytes, beyond {@link #MOST_INPUTS} dead inputs).
         */
        private List<long[]> rerunOptions(int x) {
            List<Integer> dead = new ArrayList<>();
            for (int y : inputs[x]) {
                if (sharersAt[y] == stamp) {
                    dead.add(y);
                }
            }
            long share = share(x);
            if (dead.size() > MOST_INPUTS) {
                return List.of(new long[] {share, g.size(x)});
            }
            List<List<long[]>> choices = new ArrayList<>();
            int combos = 1;
            for (int y : dead) {
                choices.add(ways(y));
                combos *= choices.get(choices.size() - 1).size();
            }
            List<long[]> options = new ArrayList<>();
            for (int c = 0; c < combos; c++) {
                long price = share;
                long covers = g.size(x);
                int rest = c;
                for (List<long[]> ways : choices) {
                    long[] way = ways.get(rest % ways.size());
                    rest /= ways.size();
                    price += way[0];
                    covers -= way[1];
                }
                if (covers > 0) {
                    options.add(new long[] {price, covers});
                }
            }
            return options;
        }

        /**
         * x's least price for each number of its bytes freed at the moment, as steps {price, bytes, bytes, x} whose
         * prices per byte do not fall: the lower convex hull from (0, 0) of its ways off chip (its load and spill
         * over all its bytes, each rerun option). Every way a plan frees b of x's bytes pays at least the hull at b.
         */
        private List<long[]> envelope(int x) {
            List<long[]> points = new ArrayList<>(rerunOptions(x));
            points.add(new long[] {full[x], g.size(x)});
            List<long[]> steps = new ArrayList<>();
            long price = 0;
            long bytes = 0;
            while (bytes < g.size(x)) {
                long[] next = null;
                for (long[] p : points) {
                    if (p[1] > bytes && (next == null || ratio(new long[] {p[0] - price, p[1] - bytes},
                            new long[] {next[0] - price, next[1] - bytes}) < 0
                            || ratio(new long[] {p[0] - price, p[1] - bytes},
                            new long[] {next[0] - price, next[1] - bytes}) == 0 && p[1] > next[1])) {
                        next = p;
                    }
                }
                steps.add(new long[] {next[0] - price, next[1] - bytes, next[1] - bytes, x});
                price = next[0];
                bytes = next[1];
            }
            return steps;
        }

        /**
         * x's one way off chip that frees the most bytes for the least price, {bytes, price}, when one does so
         * against every other (its load and each rerun option); null when two ways trade bytes against price.
         */
        private long[] dominant(int x) {
            long[] best = {g.size(x), full[x]};
            for (long[] o : rerunOptions(x)) {
                if (o[1] >= best[0] && o[0] <= best[1]) {
                    best = new long[] {o[1], o[0]};
                } else if (o[1] > best[0] || o[0] < best[1]) {
                    return null;
                }
            }
            return best;
        }

        /**
         * Live x's part of its producer's rerun at the moment: its own share, plus the shares of the producer's
         * outputs claimed by no one, in proportion to x's bytes among the producer's live outputs, rounded down.
         */
        private long share(int x) {
            if (g.producer(x) == paid) {
                return 0;
            }
            long unclaimed = 0;
            long liveBytes = 0;
            for (int z : g.outputs(g.producer(x))) {
                if (claimedAt[z] != stamp) {
                    unclaimed += rerun[z];
                } else if (liveAt[z] == stamp) {
                    liveBytes += g.size(z);
                }
            }
            return unclaimed == 0 ? rerun[x] : rerun[x] + timesOver(unclaimed, g.size(x), liveBytes);
        }

        /**
         * Compares a[0] / a[1] with b[0] / b[1] exactly: for nonnegative values by the 128-bit products (high words,
         * then low words unsigned), otherwise in BigInteger.
         */
        private static int ratio(long[] a, long[] b) {
            if ((a[0] | a[1] | b[0] | b[1]) >= 0) {
                long high = Math.multiplyHigh(a[0], b[1]);
                long other = Math.multiplyHigh(b[0], a[1]);
                return high != other ? Long.compare(high, other) : Long.compareUnsigned(a[0] * b[1], b[0] * a[1]);
            }
            return BigInteger.valueOf(a[0]).multiply(BigInteger.valueOf(b[1]))
                    .compareTo(BigInteger.valueOf(b[0]).multiply(BigInteger.valueOf(a[1])));
        }

        /** x * y / z rounded down, exactly (in a long where x * y fits, else in BigInteger); past a long, thrown. */
        private static long timesOver(long x, long y, long z) {
            if ((x | y) >= 0 && Math.multiplyHigh(x, y) == 0 && x * y >= 0) {
                return x * y / z;
            }
            return BigInteger.valueOf(x).multiply(BigInteger.valueOf(y)).divide(BigInteger.valueOf(z))
                    .longValueExact();
        }

        private static boolean contains(int[] a, int x) {
            for (int y : a) {
                if (y == x) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * One direction of the bound's DP: the graph, the budget, the target, the state cap, when to stop (the clock
     * from {@code began} up to {@code allowed}, or the meter under a work limit, and the budget's stop flag), and the
     * priced cover ({@code cheap}, null for the non-compulsory traffic) with its fan-outs' cases ({@code cases},
     * forward only, null for none).
     */
    private record Direction(Graph g, long budget, long target, boolean reverse, int stateCap, Stop stop,
                             Cheap cheap, FanOutCases cases) {

        /** Out of budget before a layer starts. */
        private boolean overBeforeLayer() {
            return stop.meter() != null ? !stop.meter().flush() || stop.limits().budget().wallOver()
                    : System.nanoTime() - stop.began() > stop.allowed() || stop.limits().stopped();
        }

        /** Out of budget before the {@code seen}-th state of a layer (checked every 1,024 states by the clock). */
        private boolean overInLayer(int n, int seen) {
            return stop.meter() != null ? !stop.meter().step(cheap == null ? n : n + cheap.size())
                    || stop.limits().budget().wallOver()
                    : (seen & 1023) == 0 && (System.nanoTime() - stop.began() > stop.allowed()
                    || stop.limits().stopped());
        }

        /** {bound, number of complete layers, 1 when a whole layer was dropped (proven) else 0}. */
        long[] run() {
            int n = g.operatorCount();
            // Forward: an operator is ready when every producer of its inputs is done; a tensor is live after the
            // done set when it was written there (or, a host tensor, read there) and is still read by an operator
            // not done. Backward (the done set is the operators that run last): an operator is ready when every
            // reader of its outputs is done; a tensor is live before the done set when some reader is done and its
            // writer (or, a host tensor, some reader) is not.
            // Insertion order: a HashMap's tree bins order keys that are not Comparable by identity hash, so the
            // states a layer cut short had expanded would depend on the JVM.
            Map<Key, long[]> layer = new java.util.LinkedHashMap<>();
            // {live bytes, of which host tensors and graph outputs, least cost so far}
            layer.put(new Key(cases == null ? new long[(n + 63) / 64] : cases.start()), new long[] {0, 0, 0});
            long bound = 0;
            int complete = 0;
            for (int k = 0; k < n; k++) {
                if (overBeforeLayer()) {
                    break;
                }
                Map<Key, long[]> next = nextLayer(layer, n);
                if (next == null) {
                    break; // out of budget or states inside a layer: it is not complete
                }
                if (next.isEmpty()) {
                    // Every order of k + 1 operators reached the target: none costs less.
                    return new long[] {target, k + 1, 1};
                }
                long least = Long.MAX_VALUE;
                for (long[] v : next.values()) {
                    least = Math.min(least, v[2]);
                }
                bound = Math.max(bound, least);
                complete = k + 1;
                layer = next;
            }
            return new long[] {bound, complete, 0};
        }

        /** The next layer of states below the target; null when cut short (budget or state cap). */
        private Map<Key, long[]> nextLayer(Map<Key, long[]> layer, int n) {
            Map<Key, long[]> next = new java.util.LinkedHashMap<>();
            int seen = 0;
            for (Map.Entry<Key, long[]> e : layer.entrySet()) {
                if (overInLayer(n, ++seen)) {
                    return null;
                }
                long[] done = e.getKey().bits;
                for (int o = 0; o < n; o++) {
                    if (!has(done, o) && ready(g, done, o, reverse) && !add(next, done, e.getValue(), o)) {
                        return null;
                    }
                }
            }
            return next;
        }

        /**
         * Adds the state after operator {@code o} runs from {@code done} (with values {@code v}) unless it reaches the
         * target; false when the layer is full.
         */
        private boolean add(Map<Key, long[]> next, long[] done, long[] v, int o) {
            long[] after = done.clone();
            after[o >> 6] |= 1L << (o & 63);
            if (cases != null) {
                cases.close(after, o);
            }
            long step = v[0];
            long cheap = v[1];
            long liveAfter = v[0];
            long cheapAfter = v[1];
            for (int x : own(g, o)) {
                boolean wasLive = isLive(g, x, done, reverse);
                boolean stillLive = isLive(g, x, after, reverse);
                long size = g.size(x);
                boolean loadOnly = g.isHost(x) || g.isGraphOutput(x);
                if (!wasLive) {
                    step += size;
                } else if (loadOnly) {
                    cheap -= size; // the operator's own: it cannot leave
                }
                long change = (stillLive ? size : 0) - (wasLive ? size : 0);
                liveAfter += change;
                if (loadOnly) {
                    cheapAfter += change;
                }
            }
            long excess = Math.max(0, step - budget);
            if (cases != null) {
                return addCases(next, done, after, v, o, excess, new long[] {liveAfter, cheapAfter});
            }
            long value = Math.max(v[2], this.cheap == null ? excess + Math.max(0, excess - cheap)
                    : excess == 0 ? 0 : this.cheap.cover(done, o, reverse, excess, v[2], target, new int[0]));
            return put(next, after, value, liveAfter, cheapAfter, null);
        }

        /**
         * {@link #add} with the fan-outs' cases ({@link FanOutCases}): the cover under the state's open cases plus its
         * bonus; where a fan-out's first case raises the moment's cover above the state's value, one state per case
         * (and so on for another fan-out, up to {@link FanOutCases#MOST_OPEN} open). False when the layer is full or
         * the work is spent.
         */
        private boolean addCases(Map<Key, long[]> next, long[] done, long[] after, long[] v, int o, long excess,
                                 long[] live) {
            long was = v[2];
            long bonus = cases.bonus(after);
            long plain = excess == 0 ? 0 : cases.cover(done, after, o, excess, was - bonus, target - bonus);
            long[] ahead = cases.ahead(v.length > 3 ? Arrays.copyOfRange(v, 3, v.length) : null, done, after, o,
                    excess, Math.max(was, plain + bonus), was - bonus, target - bonus);
            return branch(next, done, after, was, o, excess, plain, live, ahead);
        }

        /** Puts {@code state}, whose moment's cover is {@code cover}, or its cases on the next fan-out that splits. */
        private boolean branch(Map<Key, long[]> next, long[] done, long[] state, long was, int o, long excess,
                               long cover, long[] live, long[] ahead) {
            long bonus = cases.bonus(state);
            long value = Math.max(was, cover + bonus);
            long[] split = excess > 0 ? cases.split(done, state, o, excess, was - bonus, target - bonus, cover) : null;
            split = split != null && split[1] + bonus > was ? split : null;
            if (stop.meter() != null && !stop.meter().step(cheap.size() * cases.takeExtra())) {
                return false;
            }
            if (split == null) {
                return put(next, state, value, live[0], live[1], ahead);
            }
            int f = (int) split[0];
            // The second case runs f again after o: the plan pays f's value too (FanOutCases.ahead).
            return branch(next, done, cases.open(state, f, true), Math.max(was, ahead[f]), o, excess, cover, live,
                    ahead)
                    && branch(next, done, cases.open(state, f, false), was, o, excess, split[1], live, ahead);
        }

        /** Puts the state {@code after} with its values unless it reaches the target; false when the layer is full. */
        private boolean put(Map<Key, long[]> next, long[] after, long value, long liveAfter, long cheapAfter,
                            long[] ahead) {
            if (value >= target) {
                return true; // no order through here costs less than the best plan known
            }
            Key key = new Key(after);
            long[] old = next.get(key);
            if (old == null) {
                if (next.size() >= stateCap) {
                    return false;
                }
                long[] v = new long[3 + (ahead == null ? 0 : ahead.length)];
                v[0] = liveAfter;
                v[1] = cheapAfter;
                v[2] = value;
                if (ahead != null) {
                    System.arraycopy(ahead, 0, v, 3, ahead.length);
                }
                next.put(key, v);
            } else {
                // Two paths to one state: the least of each value holds for both.
                old[2] = Math.min(old[2], value);
                for (int i = 0; ahead != null && i < ahead.length; i++) {
                    old[3 + i] = Math.min(old[3 + i], ahead[i]);
                }
            }
            return true;
        }
    }

    /** The operator's inputs and outputs, each once. */
    static int[] own(Graph g, int o) {
        return java.util.stream.IntStream.concat(Arrays.stream(g.inputs(o)), Arrays.stream(g.outputs(o))).distinct()
                .toArray();
    }

    static boolean has(long[] bits, int o) {
        return (bits[o >> 6] & (1L << (o & 63))) != 0;
    }

    static boolean ready(Graph g, long[] done, int o, boolean reverse) {
        if (!reverse) {
            for (int x : g.inputs(o)) {
                int p = g.producer(x);
                if (p >= 0 && !has(done, p)) {
                    return false;
                }
            }
            return true;
        }
        for (int x : g.outputs(o)) {
            for (int c : g.consumers(x)) {
                if (!has(done, c)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether tensor x is live between the done set and the rest: forward, touched by a done operator (written, or
     * read if a host tensor) and read by one not done; backward, read by a done operator and touched by one not
     * done (its writer, or another reader of a host tensor).
     */
    static boolean isLive(Graph g, int x, long[] done, boolean reverse) {
        int p = g.producer(x);
        boolean touchedDone = p >= 0 && has(done, p);
        boolean touchedRest = p >= 0 && !has(done, p);
        boolean readDone = false;
        boolean readRest = false;
        for (int c : g.consumers(x)) {
            if (has(done, c)) {
                readDone = true;
            } else {
                readRest = true;
            }
        }
        if (p < 0) {
            touchedDone = readDone;
            touchedRest = readRest;
        }
        return reverse ? readDone && touchedRest : touchedDone && readRest;
    }

    /** A down-set as a hash key (also {@link ReloadChainBound}'s and {@link StemBound}'s states). */
    static final class Key {
        final long[] bits;
        private final int hash;

        Key(long[] bits) {
            this.bits = bits;
            this.hash = Arrays.hashCode(bits);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(bits, k.bits);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
