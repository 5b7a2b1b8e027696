package dev.noneops.cli;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.goalstate.RootFs;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code noneops version-for}: the version directory name a configuration installs
 * ({@code VersionFor}): the Kubernetes version plus a digest of every other binary-relevant
 * input. Changes nothing.
 */
@Command(
    name = "version-for",
    header = "Print the version a configuration installs",
    description =
        "The Kubernetes version plus a digest of the other binary versions, the architecture and the download overrides (VersionFor).",
    footerHeading = "%nExamples:%n",
    footer = {"  noneops version-for --config /etc/unbounded/agent/config.json"})
public final class VersionForCommand extends CliCommand {
  @Mixin
  ConfigOption config;

  /** One artifact the version installs. */
  public record ArtifactEntry(String name, String url) {}

  /** The JSON document of {@code version-for --json}. */
  public record VersionForReport(
      String version,
      String kubernetesVersion,
      String containerdVersion,
      String runcVersion,
      String cniPluginVersion,
      String crictlVersion,
      String localDnsVersion,
      String arch,
      List<ArtifactEntry> artifacts) {}

  @Override
  protected ExitCode execute() throws Exception {
    try (NodeContext ctx = openNode()) {
      AgentConfig cfg = ctx.readConfig(config.file());
      RootFs r = ctx.node(Optional.of(cfg), Optional.empty()).goalState().rootFs();
      if (json()) {
        printJson(new VersionForReport(
            r.versionName(),
            r.versions().kubernetes(),
            r.versions().containerd(),
            r.versions().runc(),
            r.versions().cniPlugins(),
            r.versions().crictl(),
            r.versions().localDns(),
            r.hostArch(),
            r.artifacts().stream()
                .map(a -> new ArtifactEntry(a.name(), a.url().toString()))
                .toList()));
      } else {
        out().println(r.versionName());
      }
      return ExitCode.OK;
    }
  }
}
