package dev.noneops.benchmarks.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Row 8 of docs/benchmarks.md from the report of {@code bin/power-cuts --agent-cost N}
 * ({@code AgentCostSystemTest}): reboots of a node with its agent beside the same node without
 * one, each timed from the reboot's start to kubelet's healthz.
 *
 * <p>Arguments: the section file, the report ({@code agent-cost.txt}), the number of reboots and a
 * line saying when and at which commit it ran.
 */
final class AgentCostSection {
  private static final Pattern MEDIAN =
      Pattern.compile("median (\\d+) ms \\(min-max (\\d+)-(\\d+), n=(\\d+)\\)");

  private AgentCostSection() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 4) {
      throw new IllegalArgumentException(
          "usage: AgentCostSection <row 8 file> <agent-cost.txt> <reboots> <when>");
    }
    String report = Files.readString(Path.of(args[1]), StandardCharsets.UTF_8);
    Matcher withAgent = figure(report, "with the agent");
    Matcher without = figure(report, "--no-agent");
    Matcher gate = figure(report, "the gate's own run");
    Matcher applied = figure(report, "changed config file -> applied");
    long difference = Long.parseLong(withAgent.group(1)) - Long.parseLong(without.group(1));
    new Section()
        .heading("8. The recovery gate's cost at boot")
        .paragraph(
            "A node bootstrapped with its agent on a sandboxed systemd 252 whose disk outlives"
                + " it, rebooted " + args[2]
                + " times, beside the same node bootstrapped with `--no-agent`"
                + " (no gate, no daemon) rebooted " + args[2]
                + " times in the same run; each time from the"
                + " reboot's start to kubelet's healthz answering.")
        .line("| figure | with the agent (gate + daemon) | baseline: `--no-agent` | difference |")
        .line("|---|---|---|---|")
        .line("| reboot start → kubelet healthz | " + cell(withAgent) + " | " + cell(without)
            + " | " + String.format(Locale.ROOT, "%+d ms", difference) + " |")
        .line("| the gate's own run (`noneops recover --at-boot`, start → exited) | " + cell(gate)
            + " | — | — |")
        .line("")
        .paragraph(
            "The gate runs before the stack's units, so its run is on the boot's critical path;"
                + " most of it is a JVM's start (from the installed build's class-data archive) and the"
                + " recovery's own reads. In the same run, a changed configuration file was applied by the"
                + " daemon after " + cell(applied)
                + ": the daemon looks at the file's metadata every 200 ms"
                + " (row 7 measures the same).")
        .paragraph("Produced by `bin/power-cuts --agent-cost " + args[2] + " -o`"
            + " (`AgentCostSystemTest`), " + args[3] + ".")
        .writeTo(Path.of(args[0]));
  }

  private static String cell(Matcher m) {
    return m.group(1) + " ms (min-max " + m.group(2) + "-" + m.group(3) + ", n=" + m.group(4) + ")";
  }

  /** The figures of the report's line that names {@code label}. */
  private static Matcher figure(String report, String label) {
    for (String line : report.split("\n")) {
      if (line.contains(label)) {
        Matcher m = MEDIAN.matcher(line);
        if (m.find()) {
          return m;
        }
      }
    }
    throw new IllegalArgumentException("the agent-cost report has no line for '" + label + "'");
  }
}
