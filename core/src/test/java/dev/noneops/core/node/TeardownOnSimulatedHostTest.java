package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.TeardownResult.Kept;
import dev.noneops.core.node.TeardownResult.Removed;
import dev.noneops.core.node.internal.files.OwnedEntry;
import dev.noneops.core.node.internal.files.OwnershipStore;
import dev.noneops.core.node.internal.task.NodeLock;
import dev.noneops.core.node.internal.teardown.TeardownSteps;
import dev.noneops.ports.files.HostLock;
import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.fs.SimFileSystem.MountKind;
import dev.noneops.testkit.process.ProcessSpec;
import dev.noneops.testkit.process.SimProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Teardown of a running node on the simulated host: everything the node owns goes, nothing else
 * changes, and each thing that is not the node's survives byte-identical and is named in the
 * report.
 */
class TeardownOnSimulatedHostTest {

  private static TeardownResult reset(Teardown teardown) throws InterruptedException {
    return teardown.stop().plus(teardown.removeConfig()).plus(teardown.destroy());
  }

  @Test
  void aFullTeardownOfARunningNodeLeavesNoOwnedTraceAndChangesNothingElse() throws Exception {
    SimNode node = SimNode.running();
    List<Path> allowedRemovals = new ArrayList<>(node.ownedPaths());
    for (OwnedEntry entry :
        new OwnershipStore(node.files(), node.paths.ownershipRecord()).load().entries()) {
      allowedRemovals.add(entry.path());
    }
    FileTreeSnapshot before = node.host.snapshot();
    Teardown teardown = node.teardown();
    assertThat(teardown.present()).isTrue();

    TeardownResult report = reset(teardown);

    assertThat(report.complete()).as("%s", report).isTrue();
    assertThat(teardown.present()).isFalse();
    for (Path owned : node.ownedPaths()) {
      assertThat(node.fs().lstat(owned)).as("%s is gone", owned).isEmpty();
    }
    FileTreeSnapshot after = node.host.snapshot();
    for (String change : after.diff(before)) {
      assertThat(change).as("only removals").startsWith("- ");
      Path removed = Path.of(change.substring(2, change.indexOf(' ', 2)));
      assertThat(allowedRemovals).as("%s was this node's", removed).anyMatch(removed::startsWith);
    }
    assertThat(node.host.fs().mountEntries())
        .noneMatch(m -> m.mountPoint().startsWith(node.paths.kubeletDir())
            || m.mountPoint().startsWith(node.paths.containerdRunDir()));
    for (SimProcess p : concat(node.shims, node.containers)) {
      assertThat(node.host.processes().process(p.pid()))
          .as("pid %d ended", p.pid())
          .isEmpty();
    }
    assertThat(node.host.processes().cgroupExists("/kubepods.slice")).isFalse();
    for (String unit : SimNode.UNITS) {
      assertThat(node.host.systemd().peek(unit).load()).isEqualTo(LoadState.NOT_FOUND);
      assertThat(node.host.systemd().peek(unit).active()).isEqualTo(ActiveState.INACTIVE);
    }
    assertThat(report.removed(TeardownAction.SHIM_KILLED)).hasSize(2);
    assertThat(subjects(report.removed(TeardownAction.UNMOUNTED))).hasSize(4);
  }

  @Test
  void foreignUnitsAreNeverStoppedDisabledOrRemoved() throws Exception {
    SimNode node = SimNode.running();
    Path nginx = node.paths.unit("nginx.service");
    node.fs()
        .seedFile(
            nginx,
            "[Service]\nExecStart=/usr/sbin/nginx\n[Install]\nWantedBy=multi-user.target\n",
            0644);
    node.host.installExecutable(Path.of("/usr/sbin/nginx"), "#!/bin/sh\n");
    node.systemd().enable(List.of("nginx.service"));
    node.systemd().start("nginx.service", Duration.ofMinutes(1));
    Path operatorDropIn = node.paths.kubeletDropInDir().resolve("90-operator.conf");
    node.fs().seedFile(operatorDropIn, "[Service]\nEnvironment=OPERATOR=1\n", 0644);
    FileTreeSnapshot nginxBefore = node.host.snapshot(nginx);
    FileTreeSnapshot dropInBefore = node.host.snapshot(operatorDropIn);

    TeardownResult report = reset(node.teardown());

    assertThat(node.host.snapshot(nginx)).isEqualTo(nginxBefore);
    assertThat(node.host.snapshot(operatorDropIn)).isEqualTo(dropInBefore);
    assertThat(nginxBefore.paths()).containsExactly(nginx.toString());
    assertThat(node.host.systemd().isEnabled("nginx.service", "multi-user.target"))
        .isTrue();
    assertThat(node.host.systemd().peek("nginx.service").isActive()).isTrue();
    assertThat(subjects(report.kept(KeepReason.FOREIGN_UNIT)))
        .containsOnlyOnce(nginx.toString(), operatorDropIn.toString());
    assertThat(report.complete()).isTrue();
    assertThat(node.teardown().present())
        .as("foreign units are no trace of this node")
        .isFalse();
  }

  @Test
  void aForeignUnitAtANodeUnitsNameIsNamedAndLeftRunning() throws Exception {
    SimNode node = SimNode.running();
    Path localdns = node.paths.unit("localdns.service");
    node.systemd().stop("localdns.service", Duration.ofMinutes(1));
    node.fs().seedFile(localdns, "[Service]\nExecStart=/usr/sbin/unbound\n", 0644);
    node.host.installExecutable(Path.of("/usr/sbin/unbound"), "#!/bin/sh\n");
    node.systemd().daemonReload();
    node.systemd().start("localdns.service", Duration.ofMinutes(1));
    FileTreeSnapshot before = node.host.snapshot(localdns);

    TeardownResult report = reset(node.teardown());

    assertThat(node.host.snapshot(localdns)).isEqualTo(before);
    assertThat(node.host.systemd().peek("localdns.service").isActive()).isTrue();
    assertThat(report.kept(KeepReason.FOREIGN_UNIT)).anySatisfy(k -> {
      assertThat(k.subject()).isEqualTo(localdns.toString());
      assertThat(k.detail()).contains("not written by this node");
    });
    assertThat(subjects(report.removed(TeardownAction.UNIT_STOPPED)))
        .doesNotContain("localdns.service");
  }

  /**
   * containerd 1.6 to 2.0 put a shim's socket ({@code s/<sha256 of address/namespace/id>}), runc's
   * state of its container ({@code runc/<namespace>/<id>}) and ctr's fifos below {@code
   * /run/containerd} whatever the containerd's own state directory: while another runtime's shim
   * runs, the teardown removes the node's entries there and keeps that runtime's byte-identical.
   */
  @Test
  void aForeignShimsSocketRuncStateAndFifosBelowTheRunDirectorySurviveTheTeardown()
      throws Exception {
    SimNode node = SimNode.running();
    node.host.installExecutable(Path.of("/opt/foreign/containerd-shim-runc-v2"), "#!/bin/sh\n");
    String address = "/run/foreign/containerd.sock";
    SimProcess shim = node.host.spawn(ProcessSpec.of(
            "/opt/foreign/containerd-shim-runc-v2",
            "/opt/foreign/containerd-shim-runc-v2",
            "-namespace",
            "foreign",
            "-id",
            "web",
            "-address",
            address)
        .inCgroup("/foreign.slice/foreign.service"));
    Path run = node.paths.containerdRunDir();
    String socket = HexFormat.of()
        .formatHex(MessageDigest.getInstance("SHA-256")
            .digest((address + "/foreign/web").getBytes(StandardCharsets.UTF_8)));
    List<Path> foreign = List.of(
        run.resolve("runc/foreign/web/state.json"),
        run.resolve("s/" + socket),
        run.resolve("fifo/3193983534/web-stdin"));
    List<Path> ours = List.of(
        run.resolve("runc/k8s.io/c1/state.json"),
        run.resolve("runc/foreign/other/state.json"),
        run.resolve("s/" + "0".repeat(64)),
        run.resolve("fifo/4242/c1-stdout"));
    for (Path p : foreign) {
      node.fs().seedDirectory(p.getParent(), 0700);
      node.fs().seedFile(p, "foreign " + p, 0600);
    }
    for (Path p : ours) {
      node.fs().seedDirectory(p.getParent(), 0700);
      node.fs().seedFile(p, "node " + p, 0600);
    }
    FileTreeSnapshot before = node.host.snapshot(run.resolve("runc/foreign/web"));

    TeardownResult report = reset(node.teardown());

    assertThat(report.complete()).as("%s", report).isTrue();
    assertThat(node.host.processes().process(shim.pid())).isPresent();
    assertThat(node.host.snapshot(run.resolve("runc/foreign/web"))).isEqualTo(before);
    for (Path p : foreign) {
      assertThat(node.fs().lstat(p)).as("%s is kept", p).isPresent();
    }
    for (Path p : ours) {
      assertThat(node.fs().lstat(p)).as("%s is gone", p).isEmpty();
    }
    assertThat(report.kept(KeepReason.FOREIGN_SHIM))
        .extracting(TeardownResult.Kept::subject)
        .contains(run.toString());
  }

  @Test
  void foreignShimsSurviveAndAreNamed() throws Exception {
    SimNode node = SimNode.running();
    node.host.installExecutable(Path.of("/usr/bin/containerd-shim-runc-v2"), "#!/bin/sh\n");
    node.host.installExecutable(Path.of("/usr/sbin/nginx"), "#!/bin/sh\n");
    SimProcess docker = node.host.spawn(ProcessSpec.of(
            "/usr/bin/containerd-shim-runc-v2",
            "/usr/bin/containerd-shim-runc-v2",
            "-namespace",
            "moby",
            "-id",
            "d1",
            "-address",
            "/run/docker/containerd/containerd.sock")
        .inCgroup("/system.slice/docker.service"));
    SimProcess otherContainerd = node.host.spawn(ProcessSpec.of(
            "/usr/bin/containerd-shim-runc-v2",
            "/usr/bin/containerd-shim-runc-v2",
            "-namespace",
            "k8s.io",
            "-id",
            "x1",
            "-address",
            "/run/other/containerd.sock")
        .inCgroup("/system.slice/other-containerd.service"));
    SimProcess mobyOnOurContainerd = node.host.spawn(ProcessSpec.of(
            node.shimBinary().toString(),
            node.shimBinary().toString(),
            "-namespace",
            "moby",
            "-id",
            "d2",
            "-address",
            node.containerdAddress().toString())
        .inCgroup(SimNode.CONTAINERD_CGROUP));
    SimProcess ourAddressOutsideOurCgroups = node.host.spawn(ProcessSpec.of(
            "/usr/bin/containerd-shim-runc-v2",
            "/usr/bin/containerd-shim-runc-v2",
            "-namespace",
            "k8s.io",
            "-id",
            "u1",
            "-address",
            node.containerdAddress().toString())
        .inCgroup("/user.slice/user-0.slice/session-3.scope"));
    SimProcess dockerContainer = node.host.spawn(
        ProcessSpec.of("/usr/sbin/nginx", "nginx").inCgroup("/system.slice/docker-d1.scope"));

    TeardownResult report = reset(node.teardown());

    for (SimProcess foreign : List.of(
        docker,
        otherContainerd,
        mobyOnOurContainerd,
        ourAddressOutsideOurCgroups,
        dockerContainer)) {
      assertThat(node.host.processes().process(foreign.pid()))
          .as("pid %d survives", foreign.pid())
          .isPresent();
    }
    for (SimProcess foreign :
        List.of(docker, otherContainerd, mobyOnOurContainerd, ourAddressOutsideOurCgroups)) {
      assertThat(report.kept(KeepReason.FOREIGN_SHIM))
          .anyMatch(k -> k.subject().startsWith("pid " + foreign.pid() + " "));
    }
    for (SimProcess ours : node.shims) {
      assertThat(node.host.processes().process(ours.pid())).isEmpty();
    }
    assertThat(report.blocking())
        .as("only the version whose shim binary the moby shim runs, and the link to it, stay")
        .extracting(Kept::reason)
        .containsOnly(KeepReason.USED_BY_FOREIGN_SHIMS);
  }

  /**
   * Docker on the node's containerd runs its containers' shims from the node's version (the shim
   * containerd found next to itself) and runc from there too: while such a shim runs, the teardown
   * keeps that version whole and the link to it, so a containerd started later can still manage
   * the container, and stays incomplete naming the shim. Once the shim is gone, the reset run
   * again finishes.
   */
  @Test
  void aVersionWhoseShimBinaryAShimOfAnotherNamespaceRunsStaysUntilThatShimIsGone()
      throws Exception {
    SimNode node = SimNode.running();
    SimProcess mobyShim = node.host.spawn(ProcessSpec.of(
            node.shimBinary().toString(),
            node.layout.currentBin().resolve("containerd-shim-runc-v2").toString(),
            "-namespace",
            "moby",
            "-id",
            "d2",
            "-address",
            node.containerdAddress().toString())
        .inCgroup(SimNode.CONTAINERD_CGROUP));
    Path version = node.shimBinary().getParent().getParent();
    FileTreeSnapshot before = node.host.snapshot(version);
    Teardown teardown = node.teardown();

    TeardownResult report = reset(teardown);

    assertThat(node.host.processes().process(mobyShim.pid())).isPresent();
    assertThat(node.fs().lstat(node.shimBinary())).as("the shim's binary").isPresent();
    assertThat(node.fs().lstat(node.shimBinary().resolveSibling("runc")))
        .as("runc, which the shim runs")
        .isPresent();
    assertThat(node.host.snapshot(version))
        .as("the version whose shim and runc the moby shim runs")
        .isEqualTo(before);
    assertThat(node.fs().readLink(node.layout.current()))
        .as("the link the shim's argv names")
        .isEqualTo(version.getFileName().toString());
    assertThat(report.blocking()).anySatisfy(k -> {
      assertThat(k.reason()).isEqualTo(KeepReason.USED_BY_FOREIGN_SHIMS);
      assertThat(k.subject()).isEqualTo(version.toString());
      assertThat(k.detail()).contains("pid " + mobyShim.pid(), "moby");
    });
    assertThat(report.complete()).isFalse();
    assertThat(teardown.present()).as("the node stays for a reset run again").isTrue();

    node.host.processes().exit(mobyShim.pid());
    TeardownResult again = reset(teardown);

    assertThat(again.complete()).as("%s", again).isTrue();
    assertThat(teardown.present()).isFalse();
    assertThat(node.fs().lstat(node.layout.root())).isEmpty();
  }

  /**
   * Docker installed after the node, on the node's containerd, keeps its containers in the {@code
   * moby} namespace of containerd's one metadata database and their root filesystems among the
   * node's snapshots: containerd's data directory is kept whole, and the reset stays incomplete
   * naming the namespaces, so the node is still present and the reset can run again.
   */
  @Test
  void containerdsDataIsKeptWholeWhileANamespaceOtherThanTheNodesHoldsData() throws Exception {
    SimNode node = SimNode.running();
    Path data = node.paths.containerdStateDir();
    seedMetadata(node, "meta-k8s.io-moby-plugins.moby.db");
    Path mobyRootfs =
        data.resolve("io.containerd.snapshotter.v1.overlayfs/snapshots/2/fs/bin/httpd");
    node.fs().seedDirectory(mobyRootfs.getParent(), 0755);
    node.fs().seedFile(mobyRootfs, "docker's container", 0755);
    FileTreeSnapshot before = node.host.snapshot(data);
    Teardown teardown = node.teardown();

    TeardownResult report = reset(teardown);

    assertThat(node.host.snapshot(data)).isEqualTo(before);
    assertThat(report.blocking()).anySatisfy(k -> {
      assertThat(k.subject()).isEqualTo(data.toString());
      assertThat(k.detail()).contains("moby", "plugins.moby").doesNotContain("k8s.io,");
    });
    assertThat(report.complete()).isFalse();
    assertThat(teardown.present())
        .as("the layout directory stays so the reset can run again")
        .isTrue();
    assertThat(node.fs().lstat(node.paths.kubeletDir()))
        .as("the rest is removed")
        .isEmpty();
  }

  @Test
  void containerdsDataGoesWhenOnlyTheNodesNamespaceHoldsData() throws Exception {
    SimNode node = SimNode.running();
    seedMetadata(node, "meta-k8s.io.db");
    Teardown teardown = node.teardown();

    TeardownResult report = reset(teardown);

    assertThat(report.complete()).as("%s", report).isTrue();
    assertThat(node.fs().lstat(node.paths.containerdStateDir())).isEmpty();
    assertThat(teardown.present()).isFalse();
  }

  /** containerd's metadata database as a real containerd wrote it (see the resource's README). */
  private static void seedMetadata(SimNode node, String resource) throws Exception {
    Path db = node.paths.containerdStateDir().resolve("io.containerd.metadata.v1.bolt/meta.db");
    node.fs().seedDirectory(db.getParent(), 0700);
    try (var in =
        TeardownOnSimulatedHostTest.class.getResourceAsStream("/containerd/" + resource)) {
      node.fs().seedFile(db, in.readAllBytes(), 0644);
    }
  }

  @Test
  void aHostDirectoryBindMountedIntoAPodVolumeSurvivesWhetherOrNotItUnmounts() throws Exception {
    SimNode node = SimNode.running();
    Path busyData = Path.of("/srv/data");
    node.fs().seedFile(busyData.resolve("db/records.bin"), "precious records", 0600);
    Path busyVolume = node.podDir("pod-a").resolve("volumes/kubernetes.io~local-volume/data");
    node.fs().seedDirectory(busyVolume, 0755);
    node.fs().bindMount(busyData, busyVolume);
    node.fs().setBusy(busyVolume, true);
    Path freeData = Path.of("/srv/shared");
    node.fs().seedFile(freeData.resolve("notes.txt"), "shared notes", 0644);
    Path freeVolume = node.podDir("pod-b").resolve("volumes/kubernetes.io~host-path/shared");
    node.fs().seedDirectory(freeVolume, 0755);
    node.fs().bindMount(freeData, freeVolume);
    FileTreeSnapshot busyBefore = node.host.snapshot(busyData);
    FileTreeSnapshot freeBefore = node.host.snapshot(freeData);

    TeardownResult report = reset(node.teardown());

    assertThat(node.host.snapshot(busyData)).isEqualTo(busyBefore);
    assertThat(node.host.snapshot(freeData)).isEqualTo(freeBefore);
    assertThat(node.host.snapshot(busyVolume).paths())
        .as("the busy volume is untouched")
        .hasSize(busyBefore.paths().size());
    assertThat(report.kept(KeepReason.STILL_MOUNTED)).anySatisfy(k -> {
      assertThat(k.subject()).isEqualTo(busyVolume.toString());
      assertThat(k.detail()).contains("EBUSY").contains("nothing at or below it was touched");
    });
    assertThat(subjects(report.removed(TeardownAction.UNMOUNTED))).contains(freeVolume.toString());
    assertThat(node.fs().lstat(freeVolume)).isEmpty();
    assertThat(report.complete()).isFalse();
  }

  @Test
  void aSymlinkPlantedInAPodDirectoryIsRemovedAsALinkAndNeverFollowed() throws Exception {
    SimNode node = SimNode.running();
    Path inVolume = node.podDir("pod-a").resolve("volumes/kubernetes.io~projected/token/ssl");
    node.fs().seedSymlink(inVolume, "/etc/ssl");
    Path inPodDir = node.podDir("pod-a").resolve("etc");
    node.fs().seedSymlink(inPodDir, "/etc");
    node.fs().seedFile(Path.of("/etc/passwd"), "root:x:0:0::/root:/bin/sh\n", 0644);
    node.fs().seedFile(Path.of("/etc/ssl/certs/ca.pem"), "ca", 0644);
    FileTreeSnapshot etcBefore = node.fs().snapshot(Path.of("/etc"), p -> !isOwnedConfig(node, p));

    TeardownResult report = reset(node.teardown());

    assertThat(node.fs().snapshot(Path.of("/etc"), p -> !isOwnedConfig(node, p)))
        .isEqualTo(etcBefore);
    assertThat(subjects(report.removed(TeardownAction.SYMLINK_REMOVED)))
        .contains(inPodDir + " -> /etc", inVolume + " -> /etc/ssl");
    assertThat(node.fs().lstat(inPodDir)).isEmpty();
    assertThat(report.complete()).isTrue();
  }

  @Test
  void aMountThatRefusesToUnmountIsLeftUntouchedAndARerunFinishesOnceItIsFree() throws Exception {
    SimNode node = SimNode.running();
    Path csi = node.podDir("pod-b").resolve("volumes/kubernetes.io~csi/pv-1/mount");
    node.fs().seedDirectory(csi, 0755);
    node.fs().mount(csi, MountKind.DISK, "ext4", "/dev/rbd0", false);
    node.fs().seedFile(csi.resolve("data/table.db"), "volume data", 0600);
    node.fs().setBusy(csi, true);
    FileTreeSnapshot volume = node.host.snapshot(csi);
    Teardown teardown = node.teardown();

    TeardownResult report = reset(teardown);

    assertThat(node.host.snapshot(csi)).isEqualTo(volume);
    assertThat(subjects(report.kept(KeepReason.STILL_MOUNTED))).containsExactly(csi.toString());
    assertThat(report.complete()).isFalse();
    assertThat(teardown.present())
        .as("the layout directory stays so the reset can run again")
        .isTrue();
    assertThat(node.fs().lstat(node.podDir("pod-a")))
        .as("what is not below the busy mount is removed")
        .isEmpty();

    node.fs().setBusy(csi, false);
    TeardownResult rerun = teardown.destroy();

    assertThat(rerun.complete()).as("%s", rerun).isTrue();
    assertThat(teardown.present()).isFalse();
    assertThat(subjects(rerun.removed(TeardownAction.UNMOUNTED))).containsExactly(csi.toString());
  }

  @Test
  void aBusyMountIsDetachedOnlyWhenLazyUnmountIsAsked() throws Exception {
    SimNode node = SimNode.running();
    Path csi = node.podDir("pod-b").resolve("volumes/kubernetes.io~csi/pv-1/mount");
    node.fs().seedDirectory(csi, 0755);
    node.fs().mount(csi, MountKind.DISK, "ext4", "/dev/rbd0", false);
    node.fs().setBusy(csi, true);

    TeardownResult report = reset(
        node.teardown(dev.noneops.core.node.TeardownOptions.defaults().withLazyUnmount(true)));

    assertThat(report.removed(TeardownAction.UNMOUNTED)).anySatisfy(r -> {
      assertThat(r.subject()).isEqualTo(csi.toString());
      assertThat(r.detail()).contains("lazily detached");
    });
    assertThat(report.complete()).isTrue();
  }

  @Test
  void aDataDirectoryOnItsOwnDiskStaysMountedAndOnlyWhatLayOnItGoes() throws Exception {
    SimulatedHost host = SimulatedHost.create();
    Path kubelet = Path.of("/var/lib/kubelet");
    host.fs().seedDirectory(kubelet, 0755);
    host.fs().mount(kubelet, MountKind.DISK_IN_FSTAB, "xfs", "/dev/sdb1", false);
    SimNode node = SimNode.running(host);

    TeardownResult report = reset(node.teardown());

    assertThat(host.fs().mountEntries())
        .anyMatch(m -> m.mountPoint().equals(kubelet) && m.source().equals("/dev/sdb1"));
    assertThat(host.fs().list(kubelet)).isEmpty();
    assertThat(report.kept(KeepReason.FOREIGN_MOUNT))
        .extracting(Kept::subject)
        .containsExactly(kubelet.toString());
    assertThat(subjects(report.removed(TeardownAction.UNMOUNTED)))
        .noneMatch(kubelet.toString()::equals);
    assertThat(report.complete()).isTrue();
    assertThat(node.teardown().present()).isFalse();
  }

  @Test
  void aConfigFileEditedByAnOperatorIsKeptAndNamed() throws Exception {
    SimNode node = SimNode.running();
    String edited = "version = 2\n# tuned by the operator\n[plugins]\n";
    node.fs().seedFile(node.paths.containerdConfig(), edited, 0644);
    node.fs()
        .seedFile(
            node.paths.host("/etc/containerd/certs.d/registry.toml"),
            "server = \"https://registry.example\"\n",
            0644);
    FileTreeSnapshot before = node.host.snapshot(node.paths.host("/etc/containerd"));

    TeardownResult report = reset(node.teardown());

    assertThat(node.host.snapshot(node.paths.host("/etc/containerd"))).isEqualTo(before);
    assertThat(report.kept(KeepReason.CHANGED_BY_OTHERS)).anySatisfy(k -> {
      assertThat(k.subject()).isEqualTo(node.paths.containerdConfig().toString());
      assertThat(k.detail()).contains("content changed since this node wrote it");
    });
    assertThat(subjects(report.kept(KeepReason.HOLDS_KEPT_ENTRIES)))
        .contains(node.paths.host("/etc/containerd").toString());
    assertThat(node.fs().lstat(node.paths.sysctlFile()))
        .as("unchanged owned files still go")
        .isEmpty();
    assertThat(report.complete()).isTrue();
  }

  @Test
  void withoutCgroupKillEveryPodProcessGetsSigkill() throws Exception {
    SimNode node = SimNode.running();
    node.host.processes().setKillSupported(false);

    TeardownResult report = reset(node.teardown());

    for (SimProcess p : node.containers) {
      assertThat(node.host.processes().process(p.pid())).isEmpty();
    }
    assertThat(report.removed(TeardownAction.CGROUP_KILLED))
        .extracting(Removed::detail)
        .allMatch(d -> d.contains("SIGKILL to each"));
    assertThat(node.host.processes().cgroupExists("/kubepods.slice")).isFalse();
    assertThat(report.complete()).isTrue();
  }

  @Test
  void presentFindsALayoutOrAMarkerUnitAndNothingElse() throws Exception {
    SimulatedHost bare = SimulatedHost.create();
    SimNode empty = SimNode.running(bare);
    reset(empty.teardown());
    assertThat(empty.teardown().present()).isFalse();

    bare.fs()
        .seedFile(
            Path.of("/etc/systemd/system/kubelet.service"),
            "[Service]\nExecStart=/usr/bin/kubelet\n",
            0644);
    assertThat(empty.teardown().present())
        .as("a foreign kubelet unit is no trace of this node")
        .isFalse();

    bare.fs()
        .seedFile(
            Path.of("/etc/systemd/system/containerd.service.d/10-x.conf"),
            HostPaths.UNIT_MARKER + "\n",
            0644);
    assertThat(empty.teardown().present()).as("a marker-bearing drop-in is").isTrue();
  }

  @Test
  void aTeardownWhileAnotherProcessHoldsTheNodeLockIsRefusedUnchanged() throws Exception {
    SimNode node = SimNode.running();
    Optional<HostLock> other = node.host.fs().tryLock(node.layout.lock(), 4321);
    assertThat(other).isPresent();
    FileTreeSnapshot before = node.host.snapshot();

    assertThatThrownBy(() -> node.teardown().destroy()).isInstanceOf(NodeBusyException.class);

    assertThat(node.host.snapshot()).isEqualTo(before);
    other.get().close();
  }

  @Test
  void aTeardownSharingTheLockOfItsProcessReentersIt() throws Exception {
    SimNode node = SimNode.running();
    NodeLock lock = new NodeLock(node.files(), node.layout);
    Teardown teardown = new Teardown(new TeardownSteps(
        node.host.ports(),
        node.layout,
        node.paths,
        TeardownOptions.defaults(),
        LoggerFactory.getLogger(getClass()),
        lock));

    try (NodeLock.Hold held = lock.acquire("reset the node")) {
      assertThat(reset(teardown).complete()).isTrue();
    }
    assertThat(teardown.present()).isFalse();
  }

  @Test
  void theStepsRunInTheResetOrderAndAnIncompleteDestroyNamesWhatWasLeft() throws Exception {
    SimNode node = SimNode.running();
    Path csi = node.podDir("pod-b").resolve("volumes/kubernetes.io~csi/pv-1/mount");
    node.fs().seedDirectory(csi, 0755);
    node.fs().mount(csi, MountKind.DISK, "ext4", "/dev/rbd0", false);
    node.fs().setBusy(csi, true);
    Teardown teardown = node.teardown();

    TeardownResult stopped = teardown.stop();
    TeardownResult configRemoved = teardown.removeConfig();
    TeardownResult destroyed = teardown.destroy();

    assertThat(stopped.removed(TeardownAction.UNIT_STOPPED))
        .extracting(Removed::subject)
        .containsExactly("kubelet.service", "containerd.service", "localdns.service");
    assertThat(configRemoved.complete()).isTrue();
    assertThat(destroyed.complete()).isFalse();
    assertThat(destroyed.blocking()).extracting(Kept::subject).contains(csi.toString());
    assertThat(teardown.present()).isTrue();

    node.fs().setBusy(csi, false);
    assertThat(teardown.destroy().complete()).isTrue();
    assertThat(teardown.present()).isFalse();
  }

  private static boolean isOwnedConfig(SimNode node, String path) {
    Path p = Path.of(path);
    return node.ownedPaths().stream().anyMatch(p::startsWith)
        || List.of(
                "/etc/containerd",
                "/etc/kubernetes",
                "/etc/sysctl.d",
                "/etc/modules-load.d",
                "/etc/unbounded/localdns",
                "/etc/systemd/system")
            .stream()
            .anyMatch(d -> p.startsWith(d));
  }

  private static List<String> subjects(List<?> items) {
    return items.stream()
        .map(i -> i instanceof Kept k ? k.subject() : ((Removed) i).subject())
        .toList();
  }

  private static List<SimProcess> concat(List<SimProcess> a, List<SimProcess> b) {
    List<SimProcess> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
