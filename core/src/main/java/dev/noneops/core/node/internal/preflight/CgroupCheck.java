package dev.noneops.core.node.internal.preflight;

import dev.noneops.ports.process.Cgroups;

/** kubelet and containerd run pods in the cgroup v2 (unified) hierarchy, which reset also walks. */
public final class CgroupCheck implements PreflightCheck {
  private final Cgroups cgroups;

  public CgroupCheck(Cgroups cgroups) {
    this.cgroups = cgroups;
  }

  @Override
  public String name() {
    return "cgroup-v2";
  }

  @Override
  public CheckOutcome run() {
    return cgroups.available()
        ? ok("the unified (v2) hierarchy is mounted")
        : fail(
            "no unified (v2) cgroup hierarchy",
            "boot with cgroup v2 (systemd.unified_cgroup_hierarchy=1 on the kernel command line)");
  }
}
