package dev.noneops.core.goalstate;

import dev.noneops.core.config.AgentConfig;
import java.util.Objects;

/**
 * Per-artifact download overrides, each as a configuration's {@code Downloads.<Artifact>} entry; {@link AgentConfig.Download#NONE} where an artifact has none. Where an
 * artifact comes from is part of the version name, so overrides are never kept beside a
 * configuration: {@link #appliedTo} writes them into its {@code Downloads}, and that configuration
 * is the one installed, digested ({@link dev.noneops.core.config.ConfigDigest}) and recorded as the
 * applied config.
 */
public record DownloadOverrides(
    AgentConfig.Download kubernetes,
    AgentConfig.Download containerd,
    AgentConfig.Download runc,
    AgentConfig.Download cni,
    AgentConfig.Download crictl,
    AgentConfig.Download localDns) {

  public static final DownloadOverrides NONE = new DownloadOverrides(
      AgentConfig.Download.NONE,
      AgentConfig.Download.NONE,
      AgentConfig.Download.NONE,
      AgentConfig.Download.NONE,
      AgentConfig.Download.NONE,
      AgentConfig.Download.NONE);

  public DownloadOverrides {
    Objects.requireNonNull(kubernetes, "kubernetes");
    Objects.requireNonNull(containerd, "containerd");
    Objects.requireNonNull(runc, "runc");
    Objects.requireNonNull(cni, "cni");
    Objects.requireNonNull(crictl, "crictl");
    Objects.requireNonNull(localDns, "localDns");
  }

  /** The overrides a configuration's {@code Downloads} holds. */
  public static DownloadOverrides of(AgentConfig.Downloads d) {
    return new DownloadOverrides(
        d.kubernetes(), d.containerd(), d.runc(), d.cni(), d.crictl(), d.localDns());
  }

  /** {@code config} with these overrides written into its {@code Downloads} ({@link #over}). */
  public AgentConfig appliedTo(AgentConfig config) {
    return config.withDownloads(over(config.downloads()));
  }

  /** {@code base} with every artifact these overrides set replaced by this override (whole entries, not fields). */
  public AgentConfig.Downloads over(AgentConfig.Downloads base) {
    return new AgentConfig.Downloads(
        pick(kubernetes, base.kubernetes()),
        pick(containerd, base.containerd()),
        pick(runc, base.runc()),
        pick(cni, base.cni()),
        pick(crictl, base.crictl()),
        pick(localDns, base.localDns()));
  }

  private static AgentConfig.Download pick(
      AgentConfig.Download override, AgentConfig.Download base) {
    return override.isEmpty() ? base : override;
  }
}
