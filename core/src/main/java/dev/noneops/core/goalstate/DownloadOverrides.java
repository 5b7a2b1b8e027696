package dev.noneops.core.goalstate;

import dev.noneops.core.config.AgentConfig;
import java.util.Objects;

/**
 * Per-artifact download overrides; {@link DownloadSource#NONE} where an artifact has none. Where an
 * artifact comes from is part of the version name, so overrides are never kept beside a
 * configuration: {@link #appliedTo} writes them into its {@code Downloads}, and that configuration
 * is the one installed, digested ({@link dev.noneops.core.config.ConfigDigest}) and recorded as the
 * applied config.
 */
public record DownloadOverrides(
    DownloadSource kubernetes,
    DownloadSource containerd,
    DownloadSource runc,
    DownloadSource cni,
    DownloadSource crictl,
    DownloadSource localDns) {

  public static final DownloadOverrides NONE = new DownloadOverrides(
      DownloadSource.NONE,
      DownloadSource.NONE,
      DownloadSource.NONE,
      DownloadSource.NONE,
      DownloadSource.NONE,
      DownloadSource.NONE);

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
        DownloadSource.of(d.kubernetes()),
        DownloadSource.of(d.containerd()),
        DownloadSource.of(d.runc()),
        DownloadSource.of(d.cni()),
        DownloadSource.of(d.crictl()),
        DownloadSource.of(d.localDns()));
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

  private static AgentConfig.Download pick(DownloadSource override, AgentConfig.Download base) {
    return override.isEmpty() ? base : override.toConfig();
  }
}
