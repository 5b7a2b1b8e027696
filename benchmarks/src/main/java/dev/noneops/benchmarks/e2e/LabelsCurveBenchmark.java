package dev.noneops.benchmarks.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.node.ApplyResult;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodePlan;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.nio.file.Path;
import java.util.List;

/**
 * Row 12: how {@code plan} and {@code apply} grow with the node's labels and taints, at 10, 100
 * and 1,000 of each, on the simulated host: a node bootstrapped with the configuration, then a
 * configuration in which one label has another value is read and validated, planned ({@link
 * Node#plan()}) and applied ({@link Node#apply()}: kubelet's configuration rewritten, kubelet
 * restarted, its readiness awaited on the simulated clock). What a real host adds to these
 * operations (kubelet's restart) does not depend on the labels, so the simulated host shows how
 * our code scales with them. Warmed up once per size, then timed.
 *
 * <p>Usage: {@code LabelsCurveBenchmark <section.md> [runs]}.
 */
public final class LabelsCurveBenchmark {
  static final List<Integer> SIZES = List.of(10, 100, 1_000);
  static final int WARM_UP = 3;

  private LabelsCurveBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path sectionFile = Path.of(args.length > 0 ? args[0] : "labels-curve.md");
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    if (runs < 1 || runs > 50) {
      throw new IllegalArgumentException("runs must be within 1..50: " + runs);
    }
    int timed = Math.max(runs * 3, 10);
    String loadBefore = LoadAverage.oneMinute();
    CostCurve parse = new CostCurve("labels and taints", "label or taint", "ms CPU");
    CostCurve plan = new CostCurve("labels and taints", "label or taint", "ms CPU");
    CostCurve apply = new CostCurve("labels and taints", "label or taint", "ms CPU");
    for (int n : SIZES) {
      measure(n, WARM_UP, new Samples("ms CPU"), new Samples("ms CPU"), new Samples("ms CPU"));
      Samples parsed = new Samples("ms CPU");
      Samples planned = new Samples("ms CPU");
      Samples applied = new Samples("ms CPU");
      measure(n, timed, parsed, planned, applied);
      parse.add(2L * n, parsed);
      plan.add(2L * n, planned);
      apply.add(2L * n, applied);
    }
    Section section = new Section()
        .heading("12. Cost curve: `plan` and `apply` by labels and taints")
        .paragraph(
            "On the simulated host (`SimNode`): a node bootstrapped with N labels and N taints "
                + "(`Kubelet.Labels`, `Kubelet.RegisterWithTaints`; N = 10, 100, 1,000, so 20, 200 and 2,000 in all), then a "
                + "configuration in which one label has another value: read and validated (`AgentConfigParser.parseAndValidate`, "
                + "what `--config` does), planned (`Node.plan()`) and applied (`Node.apply()`: kubelet's configuration "
                + "rewritten, kubelet restarted and awaited on the simulated clock). A real host adds kubelet's restart, which "
                + "does not depend on the labels. Each size is warmed up once, then " + timed
                + " runs on fresh nodes.");
    parse.table("labels and taints (read and validate)").forEach(section::line);
    plan.table("labels and taints (`plan`)").forEach(section::line);
    apply.table("labels and taints (`apply`)").forEach(section::line);
    section
        .paragraph("One-minute load average on " + Runtime.getRuntime().availableProcessors()
            + " CPUs as the row started and ended: " + loadBefore + " and "
            + LoadAverage.oneMinute()
            + LoadAverage.verdict(loadBefore) + ".")
        .writeTo(sectionFile);
  }

  private static void measure(int n, int runs, Samples parsed, Samples planned, Samples applied) {
    for (int r = 0; r < runs; r++) {
      SimNode lab = new SimNode();
      lab.bootstrap(parse(json(n, "blue")));
      byte[] changed = json(n, "green").getBytes(UTF_8);
      double start = ThreadCpu.millis();
      AgentConfig config = AgentConfigParser.parseAndValidate(changed, "amd64");
      parsed.add(ThreadCpu.millis() - start);
      start = ThreadCpu.millis();
      NodePlan p = lab.node(config).plan();
      planned.add(ThreadCpu.millis() - start);
      if (p.nothingToDo()) {
        throw new IllegalStateException("a changed label planned nothing at " + n + " labels");
      }
      start = ThreadCpu.millis();
      ApplyResult a = lab.node(config).apply();
      applied.add(ThreadCpu.millis() - start);
      if (!lab.node(config).plan().nothingToDo()) {
        throw new IllegalStateException("apply left something to do at " + n + " labels: " + a);
      }
    }
  }

  private static AgentConfig parse(String json) {
    return AgentConfigParser.parseAndValidate(json.getBytes(UTF_8), "amd64");
  }

  /** The example node with {@code n} labels (the first valued {@code first}) and {@code n} taints. */
  static String json(int n, String first) {
    StringBuilder labels = new StringBuilder();
    StringBuilder taints = new StringBuilder();
    for (int i = 0; i < n; i++) {
      labels
          .append(i == 0 ? "" : ", ")
          .append("\"example.com/label-")
          .append(i)
          .append("\": \"")
          .append(i == 0 ? first : "value-" + i)
          .append('"');
      taints
          .append(i == 0 ? "" : ", ")
          .append("\"example.com/taint-")
          .append(i)
          .append("=value-")
          .append(i)
          .append(":NoSchedule\"");
    }
    return """
        {
          "MachineName": "worker-1",
          "Cluster": { "CaCertBase64": "%s", "ClusterDNS": "10.0.0.10", "Version": "v1.31.4" },
          "Kubelet": {
            "ApiServer": "https://api.example.com:6443",
            "Auth": { "BootstrapToken": "abcdef.0123456789abcdef" },
            "Labels": { %s },
            "RegisterWithTaints": [ %s ]
          },
          "CRI": { "Containerd": {}, "Runc": {} },
          "CNI": {},
          "LocalDNS": {},
          "OCIImage": ""
        }
        """.formatted(ConfigJson.CA_BASE64, labels, taints);
  }
}
