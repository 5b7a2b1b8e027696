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
 * ({@code AgentCostSystemTest}): reboots of a node with its agent, clean (the gate skipped by its
 * conditions) and with work in flight (the gate running), beside the same node without one, each
 * timed from the reboot's start to kubelet's healthz; the goal, a clean boot within 1.1× of
 * {@code --no-agent}, marked met or missed.
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
    Matcher clean = figure(report, "clean boot (gate skipped)");
    Matcher without = figure(report, "--no-agent");
    Matcher inFlight = figure(report, "work in flight (gate runs)");
    Matcher gate = figure(report, "the gate's own run");
    Matcher applied = figure(report, "changed config file -> applied");
    long base = Long.parseLong(without.group(1));
    double ratio = Long.parseLong(clean.group(1)) / (double) base;
    new Section()
        .heading("8. The recovery gate's cost at boot")
        .paragraph(
            "A node bootstrapped with its agent on a sandboxed systemd 252 whose disk outlives"
                + " it, beside the same node bootstrapped with `--no-agent` (no gate, no daemon),"
                + " in the same run, " + args[2] + " rounds of three reboots: the agent's node on a"
                + " clean boot (nothing in flight: the gate's conditions skip it and no JVM starts"
                + " before the stack), the `--no-agent` node, and the agent's node with work in"
                + " flight (a download cut short left in the layout's staging directory, so the"
                + " gate runs and removes it, as it ran on every boot before its conditions); each"
                + " time from the reboot's start to kubelet's healthz answering.")
        .line("| figure | with the agent | baseline: `--no-agent` | against the baseline |")
        .line("|---|---|---|---|")
        .line("| reboot start → kubelet healthz, clean boot (gate skipped) | " + cell(clean) + " | "
            + cell(without) + " | "
            + String.format(
                Locale.ROOT,
                "%.2f× (%+d ms); goal ≤ 1.1×: %s",
                ratio,
                Long.parseLong(clean.group(1)) - base,
                ratio <= 1.1 ? "**met**" : "**missed**")
            + " |")
        .line("| reboot start → kubelet healthz, work in flight (the gate runs) | " + cell(inFlight)
            + " | " + cell(without) + " | "
            + String.format(Locale.ROOT, "%+d ms", Long.parseLong(inFlight.group(1)) - base)
            + " |")
        .line(
            "| the gate's own run (`noneops recover --at-boot`, start → exited), work in flight | "
                + cell(gate) + " | — | — |")
        .line("")
        .paragraph("On a clean boot systemd evaluates the gate's conditions (a few `stat`s of the"
            + " layout's files of interrupted work) and starts the stack at once; when work is"
            + " in flight the gate runs before the stack's units, so its run is on the boot's"
            + " critical path; most of it is a JVM's start (from the installed build's"
            + " class-data archive) and the recovery's own reads. In the same run, a changed"
            + " configuration file was applied by the daemon after " + cell(applied)
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
