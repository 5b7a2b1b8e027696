package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.node.internal.teardown.ShimIdentity;
import dev.noneops.core.node.internal.teardown.ShimIdentity.Verdict;
import dev.noneops.ports.process.ProcessInfo;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ShimIdentityTest {
  private static final String OUR_ADDRESS = "/srv/root/run/containerd/containerd.sock";
  private static final String LAYOUT = "/srv/root/opt/unbounded/node";
  private static final String POD_CGROUP =
      "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod1.slice/cri-containerd-a.scope";

  private final ShimIdentity identity = new ShimIdentity(Path.of(OUR_ADDRESS), Path.of(LAYOUT));

  private static ProcessInfo process(String exe, String cgroup, String... argv) {
    return new ProcessInfo(42, Optional.ofNullable(exe), List.of(argv), cgroup, List.of());
  }

  @Test
  void aShimWithOurAddressAndTheKubernetesNamespaceInAPodCgroupIsOurs() {
    ProcessInfo shim = process(
        "/usr/bin/containerd-shim-runc-v2",
        POD_CGROUP,
        "/usr/bin/containerd-shim-runc-v2",
        "-namespace",
        "k8s.io",
        "-id",
        "abc",
        "-address",
        OUR_ADDRESS);
    assertThat(identity.classify(shim)).isEqualTo(Verdict.OURS);
  }

  @Test
  void flagsWrittenWithEqualsOrDoubleDashesAndAUnixSchemeAreUnderstood() {
    ProcessInfo shim = process(
        null,
        "/system.slice/containerd.service",
        "containerd-shim-runc-v2",
        "--namespace=k8s.io",
        "--address=unix://" + OUR_ADDRESS,
        "-id",
        "x");
    assertThat(identity.classify(shim)).isEqualTo(Verdict.OURS);
  }

  @Test
  void aShimOfAnotherContainerdIsForeignEvenWhenItRunsOurBinary() {
    ProcessInfo shim = process(
        LAYOUT + "/v1/bin/containerd-shim-runc-v2",
        POD_CGROUP,
        "containerd-shim-runc-v2",
        "-namespace",
        "k8s.io",
        "-address",
        "/run/docker/containerd/containerd.sock");
    assertThat(identity.classify(shim)).isEqualTo(Verdict.FOREIGN);
  }

  @Test
  void dockersShimInTheMobyNamespaceOfOurContainerdIsForeign() {
    ProcessInfo shim = process(
        LAYOUT + "/v1/bin/containerd-shim-runc-v2",
        "/system.slice/containerd.service",
        "containerd-shim-runc-v2",
        "-namespace",
        "moby",
        "-address",
        OUR_ADDRESS);
    assertThat(identity.classify(shim)).isEqualTo(Verdict.FOREIGN);
  }

  @Test
  void anAddressThatOnlySharesAPrefixWithOursIsForeign() {
    ProcessInfo shim = process(
        null,
        POD_CGROUP,
        "containerd-shim-runc-v2",
        "-namespace",
        "k8s.io",
        "-address",
        OUR_ADDRESS + ".other");
    assertThat(identity.classify(shim)).isEqualTo(Verdict.FOREIGN);
  }

  @Test
  void aShimRunFromTheLayoutIsOursWithoutAddressFlags() {
    ProcessInfo shim = process(
        LAYOUT + "/v1/bin/containerd-shim-runc-v2 (deleted)",
        POD_CGROUP,
        "containerd-shim-runc-v2",
        "start");
    assertThat(identity.classify(shim)).isEqualTo(Verdict.OURS);
  }

  @Test
  void aV1ShimIsRecognisedToo() {
    ProcessInfo shim = process(
        "/usr/bin/containerd-shim",
        POD_CGROUP,
        "containerd-shim",
        "-namespace",
        "k8s.io",
        "-workdir",
        "/x",
        "-address",
        OUR_ADDRESS);
    assertThat(identity.classify(shim)).isEqualTo(Verdict.OURS);
  }

  @Test
  void ourAddressOutsideTheNodesCgroupsIsNotEnough() {
    ProcessInfo shim = process(
        "/usr/bin/containerd-shim-runc-v2",
        "/user.slice/user-0.slice/session-1.scope",
        "containerd-shim-runc-v2",
        "-namespace",
        "k8s.io",
        "-address",
        OUR_ADDRESS);
    assertThat(identity.classify(shim)).isEqualTo(Verdict.OUTSIDE_NODE_CGROUPS);
  }

  @Test
  void clientsThatNameOurSocketAreNotShims() {
    ProcessInfo ctr = process(
        "/usr/bin/ctr", POD_CGROUP, "ctr", "--address", OUR_ADDRESS, "-n", "k8s.io", "tasks", "ls");
    assertThat(identity.classify(ctr)).isEqualTo(Verdict.NOT_A_SHIM);
  }

  @Test
  void nodeCgroupsAreMatchedOnWholeSegmentsAnywhereInThePath() {
    assertThat(ShimIdentity.inNodeCgroup("/kubepods.slice/kubepods-pod1.slice")).isTrue();
    assertThat(ShimIdentity.inNodeCgroup("/kubepods/burstable/pod1/abc")).isTrue();
    assertThat(ShimIdentity.inNodeCgroup("/test-run/kubepods.slice/x")).isTrue();
    assertThat(ShimIdentity.inNodeCgroup("/system.slice/containerd.service")).isTrue();
    assertThat(ShimIdentity.inNodeCgroup("/system.slice/containerd.service-other"))
        .isFalse();
    assertThat(ShimIdentity.inNodeCgroup("/system.slice/docker.service")).isFalse();
    assertThat(ShimIdentity.inNodeCgroup("/mykubepods.slice")).isFalse();
    assertThat(ShimIdentity.inNodeCgroup("/")).isFalse();
    assertThat(ShimIdentity.inNodeCgroup("")).isTrue();
  }
}
