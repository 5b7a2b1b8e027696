package dev.noneops.core.config;

import java.util.Objects;

/**
 * The versions of the stack's components a node installs, said once: what the version name is
 * made of ({@link VersionFor}), what the goal state installs, and what {@code noneops version-for}
 * prints.
 *
 * @param kubernetes Kubernetes (kubelet), without a leading {@code v}
 * @param containerd containerd
 * @param runc runc
 * @param cniPlugins the CNI plugins
 * @param crictl crictl
 * @param localDns the LocalDNS server
 */
public record ComponentVersions(
    String kubernetes,
    String containerd,
    String runc,
    String cniPlugins,
    String crictl,
    String localDns) {
  public ComponentVersions {
    Objects.requireNonNull(kubernetes, "kubernetes");
    Objects.requireNonNull(containerd, "containerd");
    Objects.requireNonNull(runc, "runc");
    Objects.requireNonNull(cniPlugins, "cniPlugins");
    Objects.requireNonNull(crictl, "crictl");
    Objects.requireNonNull(localDns, "localDns");
  }
}
