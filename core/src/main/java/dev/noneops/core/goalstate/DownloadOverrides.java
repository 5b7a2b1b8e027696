package dev.noneops.core.goalstate;

import java.util.Objects;

/** Per-artifact download overrides; {@link DownloadSource#NONE} where an artifact has none. */
public record DownloadOverrides(
    DownloadSource kubernetes,
    DownloadSource containerd,
    DownloadSource runc,
    DownloadSource cni,
    DownloadSource crictl,
    DownloadSource localDns) {

  public static final DownloadOverrides NONE = new DownloadOverrides(
      DownloadSource.NONE, DownloadSource.NONE, DownloadSource.NONE, DownloadSource.NONE, DownloadSource.NONE, DownloadSource.NONE);

  public DownloadOverrides {
    Objects.requireNonNull(kubernetes, "kubernetes");
    Objects.requireNonNull(containerd, "containerd");
    Objects.requireNonNull(runc, "runc");
    Objects.requireNonNull(cni, "cni");
    Objects.requireNonNull(crictl, "crictl");
    Objects.requireNonNull(localDns, "localDns");
  }
}
