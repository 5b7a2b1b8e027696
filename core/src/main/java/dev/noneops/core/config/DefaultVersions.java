package dev.noneops.core.config;

/**
 * The component versions a node installs when neither the configuration nor a download override
 * names one: upstream's defaults, and CoreDNS as the LocalDNS server. crictl has no fixed default;
 * it follows the Kubernetes version ({@code <major>.<minor>.0}).
 */
final class DefaultVersions {
  public static final String CONTAINERD = "2.0.4";
  public static final String RUNC = "1.1.12";
  public static final String CNI_PLUGINS = "1.5.1";
  /** CoreDNS, the LocalDNS server. */
  public static final String LOCALDNS = "1.11.3";

  private DefaultVersions() {}
}
