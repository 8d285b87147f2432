package dev.memplan.sweeps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepSpecTest {
    @TempDir
    Path dir;

    private SweepSpec parse(String yaml) {
        return SweepSpec.parse(yaml, "s.yaml", dir);
    }

    private String error(String yaml) {
        return assertThrows(SweepException.class, () -> parse(yaml)).getMessage();
    }

    @Test
    void casesAreTheProductAndSchemesDoNotMultiplySolverAxes() {
        SweepSpec s = parse("""
                graphs: [fig1, diamond]
                settings: [activations, all]
                budgets: [M_R, 0.5, 100]
                planners: [paper, cosma]
                solvers: [cpsat, scip]
                time_limits: [5, 10]
                threads: [1, 2]
                repeats: 2
                """);
        // per graph, setting, budget: 4 schemes x 2 repeats + cosma x 2 solvers x 2 limits x 2 threads x 2 repeats
        assertEquals(2 * 2 * 3 * (4 * 2 + 16), s.cases().size());
        SweepCase scheme = s.cases().stream().filter(c -> c.planner().kind() == PlannerChoice.Kind.SCHEME).findFirst()
                .orElseThrow();
        assertEquals("", scheme.solver());
        assertEquals(5.0, scheme.timeLimit());
        assertEquals(1, scheme.threads());
        assertEquals(s.cases().size(), s.cases().stream().map(SweepCase::key).distinct().count());
    }

    @Test
    void keysDependOnParametersOnly() {
        SweepSpec a = parse("graphs: [fig1]\nbudgets: [M_R]\nplanners: [cosma]\n");
        SweepSpec b = parse("# another spec\nname: other\ngraphs: [fig1, chain]\nbudgets: [M_R]\nplanners: [cosma]\n");
        assertEquals(a.cases().get(0).key(), b.cases().get(0).key());
        assertNotEquals(a.hash(), b.hash());
        SweepSpec joint = parse("graphs: [fig1]\nbudgets: [M_R]\nplanners: [{name: cosma, encoding: joint}]\n");
        assertEquals("cosma[encoding=joint]", joint.cases().get(0).planner().label());
        assertNotEquals(a.cases().get(0).key(), joint.cases().get(0).key());
        SweepSpec explicitDefaults = parse("graphs: [fig1]\nbudgets: [M_R]\n"
                + "planners: [{name: cosma, encoding: decoupled, schedule: free}]\n");
        assertEquals(a.cases().get(0).key(), explicitDefaults.cases().get(0).key());
    }

    @Test
    void includeAndExcludeFilterWithWildcards() {
        SweepSpec s = parse("""
                graphs: [fig1, diamond, chain]
                budgets: [M_R, M_P]
                planners: [paper, cosma, {name: cosma, schedule: default}]
                include:
                  - {planner: "cosma*"}
                  - {planner: "*/greedy/*", budget: M_P}
                exclude:
                  - {graph: diamond}
                  - {graph: chain, planner: "cosma[*"}
                """);
        Set<String> got = s.cases().stream().map(c -> c.graph() + " " + c.budget() + " " + c.planner().label())
                .collect(Collectors.toSet());
        assertTrue(got.contains("fig1 M_R cosma[schedule=default]"), got.toString());
        assertTrue(got.contains("fig1 M_P mpmf/greedy/tflite"), got.toString());
        assertTrue(got.contains("chain M_R cosma"), got.toString());
        assertTrue(got.stream().noneMatch(g -> g.startsWith("diamond")), got.toString());
        assertTrue(got.stream().noneMatch(g -> g.startsWith("chain") && g.contains("[")), got.toString());
        assertTrue(got.stream().noneMatch(g -> g.contains("belady")), got.toString());
        // fig1: 2 budgets x 2 cosmas + 2 greedy at M_P; chain: 2 budgets x cosma + 2 greedy at M_P
        assertEquals(6 + 4, s.cases().size());
    }

    @Test
    void filesGlobsJsonAndBuffers() throws IOException {
        Files.createDirectories(dir.resolve("g"));
        String graph = "{\"format\":\"memplan-graph/1\",\"name\":\"N\",\"tensors\":[{\"name\":\"x\",\"size\":4,\"kind\":"
                + "\"activation\"},{\"name\":\"y\",\"size\":4,\"kind\":\"activation\"}],\"operators\":[{\"name\":\"o\","
                + "\"inputs\":[\"x\"],\"outputs\":[\"y\"]}],\"outputs\":[\"y\"]}";
        Files.writeString(dir.resolve("g/a.json"), graph.replace("\"N\"", "\"a\""));
        Files.writeString(dir.resolve("g/b.json"), graph.replace("\"N\"", "\"b\""));
        Files.writeString(dir.resolve("bufs.8.csv"), "id,lower,upper,size\n0,0,2,4\n1,1,3,4\n");
        SweepSpec s = SweepSpec.parse("""
                {"graphs": ["g/*.json", "gen:layered:5:2"], "budgets": ["M_R"], "planners": ["default/belady/tflite"],
                 "buffers": ["bufs.8.csv"], "capacities": ["file", 16], "allocators": ["minimalloc", "greedy"]}
                """, "s.json", dir);
        List<String> graphs = s.cases().stream().map(SweepCase::graph).distinct().toList();
        assertEquals(List.of("g/a.json", "g/b.json", "gen:layered:5:2", "bufs.8.csv"), graphs);
        assertEquals(3 + 2 * 2, s.cases().size());
        assertTrue(s.cases().get(0).source().startsWith(dir.toString()), s.cases().get(0).source());
    }

    @Test
    void trainingStepsOfNamesAndOfFilesBesideTheSpec() throws IOException {
        Files.writeString(dir.resolve("a.json"), "{\"format\":\"memplan-graph/1\",\"name\":\"a\",\"tensors\":["
                + "{\"name\":\"x\",\"size\":4,\"kind\":\"activation\"},{\"name\":\"y\",\"size\":4,\"kind\":"
                + "\"activation\"}],\"operators\":[{\"name\":\"o\",\"inputs\":[\"x\"],\"outputs\":[\"y\"]}],"
                + "\"outputs\":[\"y\"]}");
        SweepSpec s = parse("graphs: [resnet50:train, 'gen:layered:5:train+update', 'a.json:train']\n"
                + "budgets: [M_R]\nplanners: [default/belady/tflite]\n");
        assertEquals(List.of("resnet50:train", "gen:layered:5:train+update", "a.json:train"),
                s.cases().stream().map(SweepCase::graph).toList());
        String source = s.cases().get(2).source();
        assertEquals(dir.resolve("a.json") + ":train", source);
        assertEquals("a:train", GraphSources.graph(source).name());
        assertTrue(error("graphs: ['b.json:train']\nbudgets: [M_R]\nplanners: [cosma]\n").contains("b.json:train"));
    }

    @Test
    void mistakesNameTheFileLineColumnAndRule() {
        assertTrue(error("graphs: [fig1]\nbudgts: [M_R]\n").startsWith("s.yaml:2:1: unknown key 'budgts'"),
                error("graphs: [fig1]\nbudgts: [M_R]\n"));
        assertTrue(error("graphs: [fig1]\nbudgets: [M_R, half]\n").startsWith("s.yaml:2:16: budget 'half'"),
                error("graphs: [fig1]\nbudgets: [M_R, half]\n"));
        assertTrue(error("graphs: [fig1, nosuchnet]\n").startsWith("s.yaml:1:16: 'nosuchnet' is no file"),
                error("graphs: [fig1, nosuchnet]\n"));
        assertTrue(error("graphs: [\"g/*.json\"]\n").contains("no file matches 'g/*.json'"));
        assertTrue(error("graphs: [fig1]\nplanners: [default/fifo/tflite]\n").startsWith("s.yaml:2:12: unknown scheme"));
        assertTrue(error("graphs: [fig1]\nplanners: [{name: cosma, encoding: fast}]\n")
                .startsWith("s.yaml:2:36: COSMA option encoding"), error("graphs: [fig1]\nplanners: [{name: cosma, encoding: fast}]\n"));
        String map = error("graphs: [fig1]\nplanners: [{name: cosmo}]\n");
        for (dev.memplan.formulations.cosma.Technique t : dev.memplan.formulations.cosma.Technique.values()) {
            assertTrue(map.contains(t.id()), t.id() + " missing from: " + map);
        }
        assertTrue(error("graphs: [fig1]\nplanners: [{name: cosma, without: [prunning]}]\n")
                .contains("use one of " + dev.memplan.formulations.cosma.Technique.ids()));
        assertTrue(error("graphs: [fig1]\nsolvers: [gurobi]\n").startsWith("s.yaml:2:11:"));
        assertTrue(error("graphs: [fig1]\ntime_limits: [-3]\n").contains("time limit"));
        assertTrue(error("graphs: [fig1]\nsettings: [weights]\n").contains("unknown tensor setting 'weights': use 'activations' or 'all'"));
        assertTrue(error("graphs: [fig1]\nexclude: [{network: fig1}]\n").matches("s\\.yaml:2:\\d+: a filter matches.*"));
        assertTrue(error("graphs: [fig1\n").startsWith("s.yaml:"), error("graphs: [fig1\n"));
        assertTrue(error("budgets: [M_R]\n").contains("needs 'graphs'"));
        assertTrue(error("graphs: [gen:layered:x]\n").contains("not a generated graph name"));
        assertTrue(error("").contains("empty"));
    }

    @Test
    void builtinSpecsParse() {
        assertEquals(300, SweepSpec.builtin("bench-compare").cases().size());
        // 10 human networks x 2 settings x 3 budgets x 5; 4 NAS x 3 budgets x (4 schemes + 2 fixed-order COSMAs)
        assertEquals(300 + 4 * 3 * 6, SweepSpec.builtin("bench-cosma").cases().size());
        assertEquals(45, SweepSpec.builtin("three-networks").cases().size());
        assertTrue(assertThrows(SweepException.class, () -> SweepSpec.builtin("nope")).getMessage().contains("bench-compare"));
    }

    /**
     * Work limits (issue 21): a spec without limits gives the cases that count work (COSMA on CP-SAT, allocators
     * but the ILP) the default work limit and the others the default time limit; time limits alone run on wall time
     * as before; with both, the time limit is the outer guard of the work.
     */
    @Test
    void workLimitsGoToTheCasesThatCountWork() {
        SweepSpec none = parse("graphs: [fig1]\nbudgets: [M_R]\nplanners: [cosma, default/belady/tflite]\n"
                + "solvers: [cpsat, scip]\n");
        SweepCase cpsat = none.cases().stream().filter(c -> c.solver().equals("cpsat")).findFirst().orElseThrow();
        assertEquals(SweepSpec.DEFAULT_WORK_LIMIT, cpsat.workLimit());
        assertEquals(null, cpsat.timeLimit());
        SweepCase scip = none.cases().stream().filter(c -> c.solver().equals("scip")).findFirst().orElseThrow();
        assertEquals(null, scip.workLimit());
        assertEquals(SweepSpec.DEFAULT_TIME_LIMIT, scip.timeLimit());
        SweepCase scheme = none.cases().stream().filter(c -> c.solver().isEmpty()).findFirst().orElseThrow();
        assertEquals(null, scheme.workLimit());

        SweepSpec wall = parse("graphs: [fig1]\nbudgets: [M_R]\nplanners: [cosma]\ntime_limits: [5]\n");
        assertEquals(null, wall.cases().get(0).workLimit());
        assertEquals(5.0, wall.cases().get(0).timeLimit());

        SweepSpec both = parse("graphs: [fig1]\nbudgets: [M_R]\nplanners: [cosma]\ntime_limits: [90]\n"
                + "work_limits: [2, 4]\n");
        assertEquals(2, both.cases().size());
        assertEquals(List.of(2.0, 4.0), both.cases().stream().map(SweepCase::workLimit).toList());
        assertEquals(90.0, both.cases().get(0).timeLimit());
        // A work limit is part of the case: another limit, another key.
        assertTrue(!both.cases().get(0).key().equals(both.cases().get(1).key()));

        SweepException bad = assertThrows(SweepException.class, () -> parse(
                "graphs: [fig1]\nplanners: [cosma]\nwork_limits: [-1]\n"));
        assertTrue(bad.getMessage().contains("a work limit is a number of work units from 0.000001"), bad.getMessage());
        SweepException tiny = assertThrows(SweepException.class, () -> parse(
                "graphs: [fig1]\nplanners: [cosma]\nwork_limits: [0.0000001]\n"));
        assertTrue(tiny.getMessage().contains("s.yaml:3:15: a work limit is a number of work units from 0.000001"),
                tiny.getMessage());
    }

    /**
     * Issue 37.6: work limits alone on a case that counts no work (COSMA on SCIP, the ILP allocator) were run on a
     * silent 60 s wall limit; the spec refuses them where it names the solver or allocator, as the command line
     * refuses --work-limit there. With time limits given too, those cases take the time limits, as documented.
     */
    @Test
    void workLimitsAloneOnACaseThatCountsNoWorkAreRefusedWhereNamed() throws IOException {
        SweepException scip = assertThrows(SweepException.class, () -> parse(
                "graphs: [fig1]\nplanners: [cosma]\nsolvers: [cpsat, scip]\nwork_limits: [1]\n"));
        assertTrue(scip.getMessage().startsWith("s.yaml:3:18: solver 'scip' counts no work, so 'work_limits'"
                + " cannot bound COSMA on it"), scip.getMessage());
        Path csv = dir.resolve("a.12.csv");
        Files.writeString(csv, "id,lower,upper,size\na,0,3,4\n");
        SweepException ilp = assertThrows(SweepException.class, () -> parse(
                "buffers: [a.12.csv]\nallocators: [minimalloc, ilp]\nwork_limits: [1]\n"));
        assertTrue(ilp.getMessage().startsWith("s.yaml:2:26: allocator 'ilp' counts no work"), ilp.getMessage());
        // A solver that counts no work is fine with only schemes to run, and with time limits given.
        assertEquals(List.of(), parse("graphs: [fig1]\nplanners: [paper]\nsolvers: [scip]\nwork_limits: [1]\n")
                .cases().stream().filter(c -> !c.solver().isEmpty()).toList());
        SweepSpec both = parse("graphs: [fig1]\nbudgets: [M_R]\nplanners: [cosma]\nsolvers: [cpsat, scip]\n"
                + "work_limits: [1]\ntime_limits: [5]\n");
        SweepCase onScip = both.cases().stream().filter(c -> c.solver().equals("scip")).findFirst().orElseThrow();
        assertEquals(null, onScip.workLimit());
        assertEquals(5.0, onScip.timeLimit());
    }

    /**
     * Recompute weights (issue 34): an axis of COSMA and of the recompute schemes; a spill-only scheme runs once,
     * without a weight, since its plan does not depend on one.
     */
    @Test
    void recomputeWeightsAreAnAxisOfCosmaAndTheRecomputeSchemes() {
        SweepSpec s = parse("""
                graphs: [fig1, chain]
                budgets: [M_R]
                planners: [default/belady/tflite, recompute, mpmf/checkpoint-2/greedy/firstfit, cosma]
                recompute_weights: [0.5, none, 2, .5, 5e-1]
                """);
        // per graph: 1 spill-only scheme + 5 recompute schemes x 2 weights + COSMA x 3 (0.5, none, 2)
        assertEquals(2 * (1 + 5 * 2 + 3), s.cases().size());
        assertEquals(s.cases().size(), s.cases().stream().map(SweepCase::key).distinct().count());
        for (SweepCase c : s.cases()) {
            if (c.planner().recomputes()) {
                assertTrue(c.recomputeWeight() != null, c.describe());
            } else if (c.planner().kind() == PlannerChoice.Kind.SCHEME) {
                assertEquals(null, c.recomputeWeight(), c.describe());
            }
        }
        assertEquals(List.of("default/checkpoint-sqrt/belady/tflite", "default/checkpoint-sqrt/greedy/tflite",
                "default/dtr/belady/tflite", "default/dtr/greedy/tflite", "mpmf/checkpoint-2/greedy/firstfit"),
                s.cases().stream().filter(c -> c.planner().recomputes()).map(c -> c.planner().label()).distinct()
                        .toList());
        List<Double> cosma = s.cases().stream().filter(c -> c.graph().equals("fig1")
                && c.planner().kind() == PlannerChoice.Kind.COSMA).map(SweepCase::recomputeWeight).toList();
        assertEquals(java.util.Arrays.asList(0.5, null, 2.0), cosma);
        assertTrue(s.cases().stream().filter(c -> c.recomputeWeight() != null)
                .allMatch(c -> c.describe().endsWith(" lambda=" + SweepCase.weight(c.recomputeWeight()))));
        assertEquals("0.5", SweepCase.weight(0.5));
        assertEquals("2", SweepCase.weight(2));
        assertEquals("0.001", SweepCase.weight(1e-3));

        SweepSpec only = parse("graphs: [fig1]\nbudgets: [M_R]\nplanners: [recompute, cosma]\n"
                + "recompute_weights: [1, 8]\ninclude: [{recompute_weight: '8'}]\n");
        assertEquals(5, only.cases().size());
        assertTrue(only.cases().stream().allMatch(c -> c.recomputeWeight() == 8.0));
    }

    /**
     * A case without a weight keeps the key it had before weights existed, byte for byte: the keys below are those
     * of the build before recompute weights (commit 38c42fe), so a database made then resumes without re-running.
     */
    @Test
    void casesWithoutAWeightKeepTheirKeys() {
        SweepSpec old = parse("graphs: [fig1]\nbudgets: [M_R]\nplanners: [default/belady/tflite, cosma]\n"
                + "work_limits: [2]\n");
        assertEquals(List.of("eb8d504a02931edc1d50", "dba3208354bec28bbc4d"),
                old.cases().stream().map(SweepCase::key).toList());
        SweepSpec wall = parse("graphs: [fig1]\nbudgets: [M_R]\nplanners: [cosma]\ntime_limits: [5]\n");
        assertEquals("1ad4377271696b0ba035", wall.cases().get(0).key());
        SweepSpec none = parse("graphs: [fig1]\nbudgets: [M_R]\nplanners: [default/belady/tflite, cosma]\n"
                + "work_limits: [2]\nrecompute_weights: [none]\n");
        assertEquals(old.cases(), none.cases());
        SweepSpec weighted = parse("graphs: [fig1]\nbudgets: [M_R]\nplanners: [default/belady/tflite, cosma]\n"
                + "work_limits: [2]\nrecompute_weights: [none, 0, 1]\n");
        // The spill-only scheme and the weightless COSMA share the old keys; weights 0 and 1 are cases of their own.
        List<String> keys = weighted.cases().stream().map(SweepCase::key).toList();
        assertEquals(4, keys.size());
        assertTrue(keys.containsAll(List.of("eb8d504a02931edc1d50", "dba3208354bec28bbc4d")), keys.toString());
        assertEquals(4, new java.util.HashSet<>(keys).size());
        // Weights that differ in the last binary digit are different cases.
        SweepCase a = weighted.cases().get(2);
        SweepCase b = new SweepCase(a.graph(), a.source(), a.setting(), a.budget(), a.planner(), a.solver(),
                a.timeLimit(), a.workLimit(), a.threads(), a.repeat(), Math.nextUp(a.recomputeWeight()));
        assertNotEquals(a.key(), b.key());
    }

    @Test
    void badRecomputeWeightsNameTheirPlace() {
        String negative = error("graphs: [fig1]\nplanners: [cosma]\nrecompute_weights: [1, -1]\n");
        assertTrue(negative.startsWith("s.yaml:3:24: a recompute weight is a number >= 0"), negative);
        assertTrue(negative.contains("'-1'"), negative);
        String word = error("graphs: [fig1]\nplanners: [cosma]\nrecompute_weights: [cheap]\n");
        assertTrue(word.startsWith("s.yaml:3:21: a recompute weight is a number >= 0"), word);
        assertTrue(error("graphs: [fig1]\nplanners: [cosma]\nrecompute_weights: [1e999]\n")
                .contains("'1e999'"));
        assertTrue(error("graphs: [fig1]\nplanners: [cosma]\nrecompute_weights: [.inf]\n").contains("'.inf'"));
        assertTrue(error("graphs: [fig1]\nplanners: [cosma]\nrecompute_weights: [[1]]\n")
                .startsWith("s.yaml:3:21: recompute_weights item must be a single value"));
        assertTrue(error("graphs: [fig1]\nplanners: [cosma]\nrecompute_weights: []\n")
                .contains("'recompute_weights' is empty"));
        String json = assertThrows(SweepException.class, () -> SweepSpec.parse(
                "{\"graphs\": [\"fig1\"], \"recompute_weights\": [0.25, -0.5]}", "s.json", dir)).getMessage();
        assertTrue(json.startsWith("s.json:1:50: a recompute weight"), json);
        String unweighted = error("graphs: [fig1]\nplanners: [cosma, default/dtr/belady/tflite]\n");
        assertTrue(unweighted.startsWith("s.yaml:2:19: 'default/dtr/belady/tflite' recomputes, which needs a weight"),
                unweighted);
        assertTrue(error("graphs: [fig1]\nplanners: [recompute]\nrecompute_weights: [none]\n")
                .startsWith("s.yaml:2:12: 'recompute' recomputes"));
        String unknown = error("graphs: [fig1]\nplanners: [default/checkpoint-x/belady/tflite]\n"
                + "recompute_weights: [1]\n");
        assertTrue(unknown.startsWith("s.yaml:2:12: unknown recompute scheme"), unknown);
        assertTrue(error("graphs: [fig1]\nexclude: [{lambda: 1}]\n").contains("recompute_weight"));
    }

    /** The spec group 'recompute' is the list of Schemes.recompute on a training graph, in its order. */
    @Test
    void theRecomputeGroupIsTheBaselinesOfSchemes() {
        dev.memplan.model.Graph train = GraphSources.graph("fig1:train");
        assertEquals(PlannerChoice.RECOMPUTE, dev.memplan.baselines.replacement.Schemes.recompute(train, 1).stream()
                .map(dev.memplan.baselines.replacement.Scheme::name).toList());
    }

    /**
     * The spec group 'checkpoint-cheap' is every rung of checkpointing by price on the default order, whatever it
     * drops; the rungs Schemes.recompute adds on a graph where recomputing is cheap are among them. It needs weights.
     */
    @Test
    void theCheckpointCheapGroupIsEveryRung() {
        SweepSpec s = parse("graphs: [fig1:train]\nbudgets: [M_R]\nplanners: [checkpoint-cheap]\n"
                + "recompute_weights: [1, 0.00390625]\n");
        List<String> rungs = List.of("default/checkpoint-cheap-1/belady/tflite",
                "default/checkpoint-cheap-2/belady/tflite", "default/checkpoint-cheap-4/belady/tflite",
                "default/checkpoint-cheap-8/belady/tflite");
        assertEquals(rungs, s.cases().stream().map(c -> c.planner().label()).distinct().toList());
        assertEquals(8, s.cases().size());
        assertTrue(s.cases().stream().allMatch(c -> c.planner().recomputes() && c.recomputeWeight() != null));
        dev.memplan.model.Graph train = GraphSources.graph("fig1:train");
        List<String> added = dev.memplan.baselines.replacement.Schemes.recompute(train, 1.0 / 256).stream()
                .map(dev.memplan.baselines.replacement.Scheme::name).filter(n -> n.contains("cheap")).toList();
        assertTrue(!added.isEmpty() && rungs.containsAll(added), added.toString());
        assertTrue(error("graphs: [fig1]\nplanners: [checkpoint-cheap]\n")
                .startsWith("s.yaml:2:12: 'checkpoint-cheap' recomputes"));
    }
}
