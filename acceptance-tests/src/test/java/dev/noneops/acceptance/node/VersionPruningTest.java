package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.PruneResult;
import dev.noneops.core.node.internal.upgrade.VersionPruner;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.process.ProcessSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pruning removes old versions but never one that something still executes from: RKE2 deleted
 * version directories that containerd re-executed shims from and broke running pods.
 */
class VersionPruningTest {
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.3", "2.1.1", "green");

  private SimNode lab;
  private Node node;
  private String v1;
  private String v2;

  @BeforeEach
  void upgradedAndCommitted() {
    lab = new SimNode();
    lab.bootstrap(V1);
    lab.publish(V2);
    node = lab.node(V2, Optional.of(V1));
    node.upgrade();
    lab.persistApplied(V2);
    node.commit();
    v1 = lab.versionOf(V1);
    v2 = lab.versionOf(V2);
  }

  private Path taskDir(String id) {
    return lab.paths
        .containerdRunDir()
        .resolve(VersionPruner.TASK_DIR)
        .resolve("k8s.io")
        .resolve(id);
  }

  @Test
  void anUnreferencedOldVersionIsRemovedAndTheActiveOneKept() {
    PruneResult report = node.pruneVersions();

    assertThat(report.removed()).containsExactly(v1);
    assertThat(report.reasonsKept(v2)).anySatisfy(r -> assertThat(r).startsWith("active version"));
    assertThat(lab.exists(lab.layout.versionDir(v1))).isFalse();
    assertThat(lab.exists(lab.layout.versionDir(v2))).isTrue();
    assertThat(lab.stackActive()).isTrue();
  }

  @Test
  void aVersionARunningShimExecutesFromIsKeptAndReported() {
    String shim = lab.layout.binDir(v1).resolve("containerd-shim-runc-v2").toString();
    long pid = lab.host
        .spawn(ProcessSpec.of(
                shim,
                shim,
                "-namespace",
                "k8s.io",
                "-id",
                "pod-a",
                "-address",
                "/run/containerd/containerd.sock")
            .inCgroup("/system.slice/containerd.service"))
        .pid();

    PruneResult report = node.pruneVersions();

    assertThat(report.removed()).isEmpty();
    assertThat(report.reasonsKept(v1)).contains("process " + pid + " executes " + shim);
    assertThat(lab.exists(lab.layout.manifest(v1)))
        .as("a kept version stays complete")
        .isTrue();
  }

  @Test
  void aVersionOnlyContainerdTaskStatePointsAtIsKeptAndReported() throws IOException {
    String shim = lab.layout.binDir(v1).resolve("containerd-shim-runc-v2").toString();
    synchronized (lab.host.monitor()) {
      lab.host.fs().seedFile(taskDir("c0ffee").resolve("shim-binary-path"), shim, 0644);
      lab.host.fs().seedFile(taskDir("c0ffee").resolve("config.json"), "{}", 0644);
    }

    PruneResult report = node.pruneVersions();

    assertThat(report.removed()).isEmpty();
    assertThat(report.reasonsKept(v1))
        .containsExactly("containerd task k8s.io/c0ffee points at it ("
            + taskDir("c0ffee").resolve("shim-binary-path") + ")");
  }

  @Test
  void aVersionWhoseRuncTheTaskOptionsNameIsKept() throws IOException {
    String runc = lab.layout.binDir(v1).resolve("runc").toString();
    synchronized (lab.host.monitor()) {
      lab.host
          .fs()
          .seedFile(
              taskDir("beef").resolve("options.json"),
              "{\"BinaryName\":\"" + runc + "\",\"SystemdCgroup\":true}",
              0644);
    }

    PruneResult report = node.pruneVersions();

    assertThat(report.reasonsKept(v1))
        .singleElement()
        .asString()
        .contains("containerd task k8s.io/beef");
  }

  @Test
  void aVersionAProcessStillMapsADeletedLibraryOfIsKept() {
    String lib = lab.layout.versionDir(v1).resolve("lib/libshim.so").toString();
    lab.host.installExecutable(Path.of("/usr/bin/sleep"), "#!/bin/sh\n");
    long pid = lab.host
        .spawn(ProcessSpec.of("/usr/bin/sleep", "sleep", "1000").mapping(lib + " (deleted)"))
        .pid();

    PruneResult report = node.pruneVersions();

    assertThat(report.reasonsKept(v1)).containsExactly("process " + pid + " maps " + lib);
  }

  @Test
  void bothVersionsOfAnUpgradeInFlightAreKept() {
    SimNode fresh = new SimNode();
    fresh.bootstrap(V1);
    fresh.publish(V2);
    Node upgrading = fresh.node(V2, Optional.of(V1));
    upgrading.upgrade();

    PruneResult report = upgrading.pruneVersions();

    assertThat(report.removed()).isEmpty();
    assertThat(report.reasonsKept(v1))
        .anySatisfy(r -> assertThat(r).startsWith("previous version of the upgrade in flight"));
    assertThat(report.reasonsKept(v2))
        .anySatisfy(r -> assertThat(r).startsWith("target version of the upgrade in flight"));
  }

  @Test
  void pruningRefusesWhenNoVersionIsActive() throws IOException {
    synchronized (lab.host.monitor()) {
      lab.host.fs().unlink(lab.layout.current());
    }
    assertThatThrownBy(() -> node.pruneVersions())
        .hasMessageContaining("no active version")
        .hasMessageContaining("refusing to prune");
    assertThat(lab.exists(lab.layout.versionDir(v1))).isTrue();
  }
}
