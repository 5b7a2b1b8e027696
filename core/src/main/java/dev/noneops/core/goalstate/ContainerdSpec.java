package dev.noneops.core.goalstate;

import java.util.Objects;

/**
 * containerd's configuration.
 *
 * @param sandboxImage the pause image
 * @param containerdBinPath the containerd binary (under {@code current/bin})
 * @param runcBinaryPath the runc binary (under {@code current/bin})
 * @param cniBinDir where CNI plugins are found ({@code /opt/cni/bin})
 * @param cniConfDir where CNI configuration is found ({@code /etc/cni/net.d})
 * @param metricsAddress containerd's metrics listener
 * @param nvidiaRuntime whether the NVIDIA runtime is configured (GPU hosts)
 */
public record ContainerdSpec(
    String sandboxImage,
    String containerdBinPath,
    String runcBinaryPath,
    String cniBinDir,
    String cniConfDir,
    String metricsAddress,
    boolean nvidiaRuntime) {
  public ContainerdSpec {
    Objects.requireNonNull(sandboxImage, "sandboxImage");
    Objects.requireNonNull(containerdBinPath, "containerdBinPath");
    Objects.requireNonNull(runcBinaryPath, "runcBinaryPath");
    Objects.requireNonNull(cniBinDir, "cniBinDir");
    Objects.requireNonNull(cniConfDir, "cniConfDir");
    Objects.requireNonNull(metricsAddress, "metricsAddress");
  }
}
