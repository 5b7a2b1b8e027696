package dev.noneops.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.AgentSetup;
import dev.noneops.core.node.PreflightReport;
import dev.noneops.core.node.PreflightReport.Check;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code noneops preflight}: every check bootstrap, apply and upgrade rely on, as kubeadm's
 * preflight, each with pass, warn or fail and what to do about it. Changes nothing; bootstrap
 * runs the same checks first and stops on a failure. With no configuration (no {@code --config}
 * and none at the default path) it runs the checks that need none and names the others.
 */
@Command(
    name = "preflight",
    header = "Check the host before a bootstrap",
    description =
        "Changing nothing: root, systemd's version and state, cgroup v2, the kernel modules and sysctls, swap, the ports kubelet and LocalDNS bind, a kubelet or containerd of the host's own, host files at the shared paths, free space under the layout, whether the artifact sources answer, and (unless --no-agent) whether root alone can change the configuration file and the java the agent would follow (agent-files). With no configuration (no --config and no file at the default path) it runs the checks that need none and names those it skipped. One line per check (ok, warn or FAIL), then what to do about each warning and failure. Bootstrap runs the same checks and stops on a failure. Exits 0 when no check failed, 7 when one did.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  noneops preflight --config /etc/unbounded/agent/config.json",
      "  noneops --json preflight --config config.json | jq '.checks[] | select(.verdict != \"ok\")'"
    })
public final class PreflightCommand extends CliCommand {
  @Option(
      names = "--ignore-version-skew",
      description = "Warn of, rather than refuse, a kubelet the version skew policy refuses (newer"
          + " than the API server, or more than three minor versions older).")
  boolean ignoreVersionSkew;

  @Mixin
  ConfigOption config;

  @Option(
      names = "--no-kernel-modules",
      description =
          "Check as for 'bootstrap --no-kernel-modules', which leaves the kernel alone: a kernel module that is missing is then a warning, not a failure, and the sysctls not in force are named with the values the host must set.")
  boolean noKernelModules;

  @Option(
      names = "--no-agent",
      description =
          "Check as for 'bootstrap --no-agent': the agent's command on PATH is then not among the files taken over.")
  boolean noAgent;

  /** One check of {@code preflight --json}: {@code verdict} is ok, warn or fail. */
  public record CheckReport(String name, String verdict, String detail, String remedy) {
    static CheckReport of(Check c) {
      return new CheckReport(
          c.name(), c.verdict().name().toLowerCase(Locale.ROOT), c.detail(), c.remedy());
    }
  }

  /**
   * The JSON document of {@code preflight --json}; {@code skipped}, the checks left out for want
   * of a configuration, only when there are any.
   */
  public record PreflightDocument(
      boolean ok,
      List<CheckReport> checks,
      List<String> failed,
      List<String> warned,
      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> skipped) {}

  @Override
  protected ExitCode execute() throws Exception {
    try (NodeContext ctx =
        openNode().cluster(new NodeContext.ClusterOptions(Optional.empty(), ignoreVersionSkew))) {
      PreflightReport report;
      List<String> skipped = List.of();
      Optional<String> withoutConfiguration = withoutConfiguration(ctx);
      if (withoutConfiguration.isPresent()) {
        report = ctx.node(Optional.empty(), Optional.empty())
            .preflightWithoutConfiguration(!noKernelModules);
        skipped = PreflightReport.NEED_A_CONFIGURATION.stream()
            .filter(name -> !(noAgent && name.equals("agent-files")))
            .toList();
        whySkipped = withoutConfiguration.get();
      } else {
        AgentConfig cfg = ctx.readConfig(config.file());
        Optional<AgentSetup> agent =
            noAgent ? Optional.empty() : environment().agent().forConfig(config.file());
        report = ctx.node(Optional.of(cfg), Optional.empty(), agent).preflight(!noKernelModules);
      }
      if (json()) {
        printJson(new PreflightDocument(
            report.passed(),
            report.checks().stream().map(CheckReport::of).toList(),
            report.failures().stream().map(Check::name).toList(),
            report.warnings().stream().map(Check::name).toList(),
            skipped));
      } else {
        printText(report, skipped);
      }
      return report.passed() ? ExitCode.OK : ExitCode.UNHEALTHY;
    }
  }

  /** Why the checks that need a configuration were skipped, for the text's line. */
  private String whySkipped = "";

  /**
   * Why preflight runs without a configuration, or empty when it reads one: no {@code --config}
   * and no file at the default path, or a file only root may read and this process is not root
   * (its root check then fails, and says so).
   */
  private Optional<String> withoutConfiguration(NodeContext ctx) throws IOException {
    Path file = config.file();
    try {
      if (!configGiven() && !ctx.ports().files().exists(file)) {
        return Optional.of("no configuration at " + file + " (pass --config FILE)");
      }
      if (!environment().privileged().getAsBoolean()) {
        ctx.ports().files().read(file);
      }
      return Optional.empty();
    } catch (HostIOException e) {
      if (e.errno() == Errno.EACCES && !environment().privileged().getAsBoolean()) {
        return Optional.of("only root can read the configuration at " + file);
      }
      if (e.errno() == Errno.ENOENT) {
        return Optional.empty(); // reading it says so, exit 3
      }
      throw e;
    }
  }

  /** Whether {@code --config} was on the command line (else the default path, which may be absent). */
  private boolean configGiven() {
    return spec.commandLine().getParseResult().hasMatchedOption("--config");
  }

  private void printText(PreflightReport report, List<String> skipped) {
    int width = report.checks().stream().mapToInt(c -> c.name().length()).max().orElse(0);
    List<Check> notOk = new ArrayList<>();
    for (Check c : report.checks()) {
      out().printf("%-4s  %-" + width + "s  %s%n", label(c), c.name(), detailOnce(c, notOk));
      if (c.verdict() != PreflightReport.Verdict.OK) {
        notOk.add(c);
      }
    }
    if (!skipped.isEmpty()) {
      out().println("skipped, " + whySkipped + ": " + String.join(", ", skipped));
    }
    Map<String, List<String>> checksByRemedy = new LinkedHashMap<>();
    for (Check c : notOk) {
      checksByRemedy.computeIfAbsent(c.remedy(), r -> new ArrayList<>()).add(c.name());
    }
    if (!notOk.isEmpty()) {
      out().println();
      out().println("What to do:");
      checksByRemedy.forEach((remedy, names) ->
          out().printf("  %-" + width + "s  %s%n", String.join(", ", names), remedy));
    }
    out()
        .println(
            report.passed()
                ? "preflight passed"
                    + (notOk.isEmpty()
                        ? ""
                        : " with " + notOk.size() + " warning" + (notOk.size() == 1 ? "" : "s"))
                : "preflight FAILED: " + report.failures().size() + " check"
                    + (report.failures().size() == 1 ? "" : "s")
                    + " failed; bootstrap would stop before changing anything");
  }

  /**
   * A check's detail, or, when it could not look for a failure an earlier check already reported,
   * a pointer to that check: one cause (systemd not answering, say) is said once.
   */
  private static String detailOnce(Check c, List<Check> earlier) {
    String prefix = "could not check: ";
    if (c.verdict() == PreflightReport.Verdict.OK || !c.detail().startsWith(prefix)) {
      return c.detail();
    }
    String cause = c.detail().substring(prefix.length());
    return earlier.stream()
        .filter(e -> e.detail().contains(cause))
        .findFirst()
        .map(e -> prefix + "the same failure as " + e.name())
        .orElse(c.detail());
  }

  private static String label(Check c) {
    return switch (c.verdict()) {
      case OK -> "ok";
      case WARN -> "warn";
      case FAIL -> "FAIL";
    };
  }
}
