package dev.noneops.testkit.artifacts;

import java.util.Objects;

/**
 * The versions of one complete set of node artifacts, as a configuration names them, and where
 * the container runtime comes from.
 *
 * @param kubernetesVersion kubelet, kubectl and kube-proxy (stand-ins) and the crictl default
 * @param containerd containerd, its shim and ctr
 * @param runc runc
 * @param cniVersion the CNI plugins (stand-ins)
 * @param crictlVersion crictl (a stand-in)
 * @param localDnsVersion the LocalDNS server (the CoreDNS stand-in)
 * @param arch {@code amd64} or {@code arm64}
 * @param kubeletNeverHealthy the kubelet of this set never becomes healthy (to make an upgrade roll back)
 */
public record ArtifactSet(
    String kubernetesVersion,
    Runtime containerd,
    Runtime runc,
    String cniVersion,
    String crictlVersion,
    String localDnsVersion,
    String arch,
    boolean kubeletNeverHealthy) {

  public ArtifactSet {
    Objects.requireNonNull(kubernetesVersion, "kubernetesVersion");
    Objects.requireNonNull(containerd, "containerd");
    Objects.requireNonNull(runc, "runc");
    Objects.requireNonNull(cniVersion, "cniVersion");
    Objects.requireNonNull(crictlVersion, "crictlVersion");
    Objects.requireNonNull(localDnsVersion, "localDnsVersion");
    Objects.requireNonNull(arch, "arch");
  }

  /** This set with a kubelet that never becomes healthy, under another Kubernetes version. */
  public ArtifactSet withBrokenKubelet(String brokenKubernetesVersion) {
    return new ArtifactSet(
        brokenKubernetesVersion,
        containerd,
        runc,
        cniVersion,
        crictlVersion,
        localDnsVersion,
        arch,
        true);
  }

  /** This set with another containerd. */
  public ArtifactSet withContainerd(Runtime newContainerd) {
    return new ArtifactSet(
        kubernetesVersion,
        newContainerd,
        runc,
        cniVersion,
        crictlVersion,
        localDnsVersion,
        arch,
        kubeletNeverHealthy);
  }

  /**
   * A runtime component (containerd or runc) at a version as the configuration names it.
   *
   * @param version the version in the configuration and the download URL, e.g. {@code 1.6.20-deb12u3}
   * @param real whether its binaries are Debian's real ones, or small stand-in scripts (for hosts
   *     that never run them)
   * @param debianVersion the Debian package version the real binaries come from, e.g.
   *     {@code 1.6.20~ds1-1+deb12u3}; empty for the candidate version
   */
  public record Runtime(String version, boolean real, String debianVersion) {
    public Runtime {
      Objects.requireNonNull(version, "version");
      Objects.requireNonNull(debianVersion, "debianVersion");
    }

    /** Real binaries from Debian's package at {@code debianVersion} (empty: the candidate). */
    public static Runtime fromDebian(String version, String debianVersion) {
      return new Runtime(version, true, debianVersion);
    }

    /** Stand-in scripts, for a simulated host that never executes them. */
    public static Runtime standIn(String version) {
      return new Runtime(version, false, "");
    }
  }
}
