package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.noneops.core.node.KeepReason;
import dev.noneops.core.node.Teardown;
import dev.noneops.core.node.TeardownAction;
import dev.noneops.core.node.TeardownOptions;
import dev.noneops.core.node.TeardownResult;
import dev.noneops.core.node.TeardownResult.Kept;
import dev.noneops.core.node.TeardownResult.Removed;
import dev.noneops.core.node.internal.teardown.SafeTreeRemover;
import dev.noneops.core.node.internal.teardown.TeardownLog;
import dev.noneops.hostfs.RealHost;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.mounts.MountEntry;
import dev.noneops.ports.mounts.MountTable;
import dev.noneops.ports.mounts.UnmountFlag;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Teardown on the real kernel: real tmpfs and bind mounts inside a private mount namespace, real
 * symlinks, real processes standing in for shims and containers, and a real cgroup v2 subtree
 * where the machine offers one. Everything lives below a temporary directory acting as the host
 * root; only processes the test started are ever ended.
 */
class RealTeardownTest {
  private static final String POD_CGROUP =
      "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-poda.slice";
  private static final String CONTAINER_CGROUP = POD_CGROUP + "/cri-containerd-abc.scope";
  private static final String DOCKER_CGROUP = "/system.slice/docker.service";
  private static final String OUR_CONTAINERD_CGROUP = "/system.slice/containerd.service";

  @TempDir
  Path tempDir;

  private KernelSandbox sandbox;
  private StandIns processes;
  private TestCgroup cgroup;
  private String noCgroupBecause = "";
  private RealHost real;
  private RealNode node;
  private UnitDirectorySystemd systemd;

  @BeforeEach
  void openSandbox() throws IOException {
    sandbox = KernelSandbox.open(tempDir);
    processes = new StandIns();
    TestCgroup.Outcome outcome = TestCgroup.create();
    cgroup = outcome.cgroup();
    noCgroupBecause = outcome.whyNot();
    Path cgroupRoot = cgroup != null ? cgroup.root() : sandbox.top().resolve("no-cgroup-hierarchy");
    real = RealHost.builder().cgroupRoot(cgroupRoot).build();
    Path root = sandbox.top().resolve("host");
    Files.createDirectories(root);
    node = new RealNode(root, real.files()).install();
    systemd = new UnitDirectorySystemd(node.paths.systemdDir())
        .running("kubelet.service", "containerd.service", "localdns.service", "nginx.service");
  }

  @AfterEach
  void cleanUp() throws Exception {
    processes.close();
    sandbox.unmountAll();
    if (cgroup != null) {
      cgroup.close();
    }
  }

  private Teardown teardown(TeardownOptions settings) {
    HostPorts ports = real.ports(systemd);
    return new Teardown(
        ports, node.layout, node.paths, settings, LoggerFactory.getLogger(RealTeardownTest.class));
  }

  private static TeardownOptions quick() {
    return TeardownOptions.defaults()
        .withUnmountDeadline(Duration.ofMillis(500))
        .withProcessDeadline(Duration.ofSeconds(10))
        .withCgroupDeadline(Duration.ofSeconds(10));
  }

  @Test
  void aResetHarmsNothingForeignAndARerunFinishesOnceTheBusyMountsAreFreed() throws Exception {
    // Foreign things on the host.
    RealNode.write(node.paths.unit("nginx.service"), "[Service]\nExecStart=/usr/sbin/nginx\n");
    Path operatorDropIn = node.paths.kubeletDropInDir().resolve("90-operator.conf");
    RealNode.write(operatorDropIn, "[Service]\nEnvironment=OPERATOR=1\n");
    RealNode.write(node.paths.containerdConfig(), "version = 2\n# tuned by the operator\n");
    RealNode.write(
        node.host("/etc/containerd/certs.d/registry.toml"),
        "server = \"https://registry.example\"\n");
    RealNode.write(node.host("/etc/passwd"), "root:x:0:0::/root:/bin/sh\n");

    // A host directory bind-mounted into a pod volume, kept busy by a process outside the node.
    Path hostData = node.host("/srv/data");
    RealNode.write(hostData.resolve("db/records.bin"), "precious records");
    Path boundVolume = node.pod("pod-b").resolve("volumes/kubernetes.io~local-volume/data");
    Files.createDirectories(boundVolume);
    sandbox.bind(hostData, boundVolume);
    Process dataHolder = processes.holding(boundVolume.resolve("db"));

    // A host directory bind-mounted into a pod volume that unmounts fine.
    Path hostShared = node.host("/srv/shared");
    RealNode.write(hostShared.resolve("notes.txt"), "shared notes");
    Path sharedVolume = node.pod("pod-a").resolve("volumes/kubernetes.io~host-path/shared");
    Files.createDirectories(sharedVolume);
    sandbox.bind(hostShared, sharedVolume);

    // A CSI volume that refuses to unmount.
    Path csi = node.pod("pod-c").resolve("volumes/kubernetes.io~csi/pv-1/mount");
    Files.createDirectories(csi);
    sandbox.mountTmpfs(csi);
    RealNode.write(csi.resolve("data.txt"), "volume data");
    Process csiHolder = processes.holding(csi);

    // Mounts pods left that unmount fine: an emptyDir and a container rootfs.
    Path emptyDir = node.pod("pod-a").resolve("volumes/kubernetes.io~empty-dir/cache");
    Files.createDirectories(emptyDir);
    sandbox.mountTmpfs(emptyDir);
    RealNode.write(emptyDir.resolve("cache.bin"), "cache");
    Path rootfs =
        node.paths.containerdRunDir().resolve("io.containerd.runtime.v2.task/k8s.io/abc/rootfs");
    sandbox.mountTmpfs(rootfs);
    RealNode.write(rootfs.resolve("app"), "app");

    // Symlinks planted in a pod directory, at the test root's /etc and at the real /etc.
    Path plantedLink = node.pod("pod-a").resolve("etc");
    Files.createSymbolicLink(plantedLink, node.host("/etc"));
    Files.createSymbolicLink(node.pod("pod-a").resolve("real-etc"), Path.of("/etc"));

    Shims shims = cgroup != null ? startShims() : null;

    SortedMap<String, String> hostDataBefore = TreeImage.of(hostData);
    SortedMap<String, String> sharedBefore = TreeImage.of(hostShared);
    SortedMap<String, String> csiBefore = TreeImage.of(csi);
    SortedMap<String, String> etcBefore = TreeImage.of(node.host("/etc"));
    SortedMap<String, String> realEtcBefore = realEtcSample();

    Teardown teardown = teardown(quick());
    assertThat(teardown.present()).isTrue();

    TeardownResult report = teardown.stop().plus(teardown.removeConfig()).plus(teardown.destroy());

    // Every foreign thing is byte-identical.
    assertThat(TreeImage.of(hostData)).isEqualTo(hostDataBefore);
    assertThat(TreeImage.of(hostShared)).isEqualTo(sharedBefore);
    assertThat(TreeImage.of(csi)).isEqualTo(csiBefore);
    assertThat(realEtcSample()).isEqualTo(realEtcBefore);
    SortedMap<String, String> etcAfter = TreeImage.of(node.host("/etc"));
    assertThat(etcBefore).containsAllEntriesOf(etcAfter);
    assertThat(etcAfter)
        .containsKeys(
            "systemd/system/nginx.service",
            "systemd/system/kubelet.service.d/90-operator.conf",
            "containerd/config.toml",
            "containerd/certs.d/registry.toml",
            "passwd");
    assertThat(KernelSandbox.isMountPoint(boundVolume)).isTrue();
    assertThat(KernelSandbox.isMountPoint(csi)).isTrue();
    assertThat(dataHolder.isAlive()).isTrue();
    assertThat(csiHolder.isAlive()).isTrue();
    assertThat(systemd.isActive("nginx.service")).isTrue();
    assertThat(systemd.calls()).noneMatch(c -> c.contains("nginx"));

    // ... and the report names it.
    assertThat(subjects(report.kept(KeepReason.STILL_MOUNTED)))
        .contains(boundVolume.toString(), csi.toString());
    assertThat(subjects(report.kept(KeepReason.FOREIGN_UNIT)))
        .contains(operatorDropIn.toString(), node.paths.unit("nginx.service").toString());
    assertThat(subjects(report.kept(KeepReason.CHANGED_BY_OTHERS)))
        .contains(node.paths.containerdConfig().toString());
    assertThat(subjects(report.removed(TeardownAction.SYMLINK_REMOVED)))
        .contains(
            plantedLink + " -> " + node.host("/etc"),
            node.pod("pod-a").resolve("real-etc") + " -> /etc");
    assertThat(subjects(report.removed(TeardownAction.UNMOUNTED)))
        .contains(sharedVolume.toString(), emptyDir.toString(), rootfs.toString());
    assertThat(report.complete()).isFalse();
    assertThat(teardown.present())
        .as("the layout stays while pod mounts are left, so reset can run again")
        .isTrue();
    if (shims != null) {
      shims.assertOnlyOursEnded(report);
    }

    // What could go is gone.
    assertThat(node.paths.unit("kubelet.service")).doesNotExist();
    assertThat(node.paths.ownershipRecord()).doesNotExist();
    assertThat(node.paths.sysctlFile()).doesNotExist();
    assertThat(node.paths.containerdStateDir()).doesNotExist();
    assertThat(node.paths.containerdRunDir()).doesNotExist();
    assertThat(node.pod("pod-a")).doesNotExist();
    if (shims != null) {
      // another containerd's shim runs the node's shim binary: its version stays while it runs
      assertThat(node.shimBinary()).exists();
      assertThat(subjects(report.kept(KeepReason.USED_BY_FOREIGN_SHIMS)))
          .contains(node.layout.versionDir(RealNode.VERSION).toString());
    } else {
      assertThat(node.layout.binDir(RealNode.VERSION)).doesNotExist();
    }

    // Once whoever held the mounts (and ran the node's shim binary) lets go, running the
    // teardown again finishes it.
    StandIns.end(dataHolder);
    StandIns.end(csiHolder);
    if (shims != null) {
      shims.endForeign();
    }
    TeardownResult rerun = teardown.destroy();

    assertThat(rerun.complete()).as("%s", rerun).isTrue();
    assertThat(teardown.present()).isFalse();
    for (Path trace : node.ownedTraces()) {
      assertThat(Files.exists(trace, LinkOption.NOFOLLOW_LINKS))
          .as("%s is gone", trace)
          .isFalse();
    }
    assertThat(TreeImage.of(hostData)).isEqualTo(hostDataBefore);
    assertThat(TreeImage.of(hostShared)).isEqualTo(sharedBefore);
    assertThat(TreeImage.of(node.host("/etc"))).isEqualTo(etcAfter);
    assertThat(subjects(rerun.removed(TeardownAction.UNMOUNTED)))
        .contains(boundVolume.toString(), csi.toString());
  }

  @Test
  void aBusyMountIsDetachedLazilyOnlyWhenAskedAndWhatIsOnItIsNeverDeleted() throws Exception {
    Path csi = node.pod("pod-c").resolve("volumes/kubernetes.io~csi/pv-1/mount");
    Files.createDirectories(csi);
    sandbox.mountTmpfs(csi);
    RealNode.write(csi.resolve("data.txt"), "volume data");
    Process holder = processes.holding(csi);

    TeardownResult strict = teardown(quick()).destroy();
    assertThat(subjects(strict.kept(KeepReason.STILL_MOUNTED))).contains(csi.toString());
    assertThat(csi.resolve("data.txt")).hasContent("volume data");

    TeardownResult lazy = teardown(quick().withLazyUnmount(true)).destroy();

    assertThat(lazy.removed(TeardownAction.UNMOUNTED)).anySatisfy(r -> {
      assertThat(r.subject()).isEqualTo(csi.toString());
      assertThat(r.detail()).contains("lazily detached");
    });
    assertThat(lazy.complete()).as("%s", lazy).isTrue();
    assertThat(node.paths.kubeletDir()).doesNotExist();
    assertThat(Path.of("/proc", Long.toString(holder.pid()), "cwd", "data.txt"))
        .as("the detached volume is still whole for the process using it")
        .hasContent("volume data");
  }

  @Test
  void aBindMountOfTheSameFilesystemIsNeverEnteredEvenWhenTheMountTableOmitsIt() throws Exception {
    Path hostData = node.host("/srv/data");
    RealNode.write(hostData.resolve("records.bin"), "precious records");
    Path volume = node.pod("pod-b").resolve("volumes/kubernetes.io~local-volume/data");
    Files.createDirectories(volume);
    sandbox.bind(hostData, volume);
    assertThat(Files.getAttribute(volume, "unix:dev"))
        .as("the bind mount shares the device")
        .isEqualTo(Files.getAttribute(hostData, "unix:dev"));
    SortedMap<String, String> before = TreeImage.of(hostData);

    MountTable blind = new MountTable() {
      @Override
      public List<MountEntry> mounts() throws IOException {
        return real.mounts().mounts().stream()
            .filter(m -> !m.mountPoint().startsWith(node.paths.kubeletDir()))
            .toList();
      }

      @Override
      public void unmount(Path mountPoint, Set<UnmountFlag> flags) throws IOException {
        real.mounts().unmount(mountPoint, flags);
      }
    };
    SafeTreeRemover remover = new SafeTreeRemover(
        real.files(),
        blind,
        real.clock(),
        quick(),
        LoggerFactory.getLogger(RealTeardownTest.class));

    TeardownLog report = remover.remove(List.of(node.paths.kubeletDir()));

    assertThat(TreeImage.of(hostData)).isEqualTo(before);
    assertThat(KernelSandbox.isMountPoint(volume)).isTrue();
    assertThat(report.kept(KeepReason.STILL_MOUNTED)).anySatisfy(k -> {
      assertThat(k.subject()).isEqualTo(volume.toString());
      assertThat(k.detail()).contains("another mount");
    });
    assertThat(node.pod("pod-a")).doesNotExist();
  }

  @Test
  void aDataDirectoryThatIsASymlinkIsNeitherFollowedNorRemoved() throws Exception {
    Path elsewhere = node.host("/srv/kubelet-data");
    RealNode.write(elsewhere.resolve("pods/keep.txt"), "operator data");
    Path kubelet = node.paths.kubeletDir();
    try (Stream<Path> walk = Files.walk(kubelet)) {
      walk.sorted((a, b) -> b.getNameCount() - a.getNameCount())
          .forEach(p -> p.toFile().delete());
    }
    Files.createSymbolicLink(kubelet, elsewhere);
    SortedMap<String, String> before = TreeImage.of(elsewhere);

    TeardownResult report = teardown(quick()).destroy();

    assertThat(TreeImage.of(elsewhere)).isEqualTo(before);
    assertThat(Files.isSymbolicLink(kubelet)).isTrue();
    assertThat(subjects(report.kept(KeepReason.SYMLINK_NOT_FOLLOWED))).contains(kubelet.toString());
  }

  @Test
  void onlyThisNodesShimsAndPodsAreKilledAndThePodCgroupsRemovedDeepestFirst() throws Exception {
    assumeTrue(cgroup != null, "no writable cgroup v2 hierarchy: " + noCgroupBecause);
    Shims shims = startShims();

    TeardownResult report = teardown(quick()).destroy();

    shims.assertOnlyOursEnded(report);
    assertThat(cgroup.exists("/kubepods.slice")).isFalse();
    assertThat(cgroup.exists(DOCKER_CGROUP)).isTrue();
    assertThat(subjects(report.removed(TeardownAction.CGROUP_REMOVED)))
        .containsSubsequence(
            CONTAINER_CGROUP,
            POD_CGROUP,
            "/kubepods.slice/kubepods-besteffort.slice",
            "/kubepods.slice");
    assertThat(report.removed(TeardownAction.CGROUP_KILLED))
        .extracting(Removed::detail)
        .anyMatch(d -> d.contains("cgroup.kill"));
    assertThat(report.blocking())
        .as("only the version another containerd's shim runs its binary from stays")
        .extracting(Kept::reason)
        .containsOnly(KeepReason.USED_BY_FOREIGN_SHIMS);
    assertThat(report.kept(KeepReason.USED_BY_FOREIGN_SHIMS)).anySatisfy(k -> {
      assertThat(k.subject()).isEqualTo(node.layout.versionDir(RealNode.VERSION).toString());
      assertThat(k.detail()).contains("pid " + shims.foreignShims().get(2).pid() + " ");
    });
    assertThat(node.shimBinary()).exists();
  }

  /** This node's shim and container, and foreign ones, each in its cgroup. */
  private Shims startShims() throws IOException {
    Path address = node.containerdAddress();
    Process ourShim = processes.shim(node.shimBinary(), "k8s.io", "abc", address);
    cgroup.place(ourShim.pid(), OUR_CONTAINERD_CGROUP);
    Process ourContainer = processes.sleeper();
    cgroup.place(ourContainer.pid(), CONTAINER_CGROUP);
    Path foreignBinary = StandIns.installShimBinary(node.host("/usr/bin/containerd-shim-runc-v2"));
    Process dockerShim = processes.shim(
        foreignBinary, "moby", "d1", node.host("/run/docker/containerd/containerd.sock"));
    cgroup.place(dockerShim.pid(), DOCKER_CGROUP);
    Process mobyOnOurContainerd = processes.shim(foreignBinary, "moby", "d2", address);
    cgroup.place(mobyOnOurContainerd.pid(), OUR_CONTAINERD_CGROUP);
    Process otherContainerdShim = processes.shim(
        node.shimBinary(), "k8s.io", "x1", node.host("/run/other-containerd/containerd.sock"));
    cgroup.place(otherContainerdShim.pid(), DOCKER_CGROUP);
    Process dockerContainer = processes.sleeper();
    cgroup.place(dockerContainer.pid(), DOCKER_CGROUP + "/container-1");
    return new Shims(
        List.of(ourShim, ourContainer),
        List.of(dockerShim, mobyOnOurContainerd, otherContainerdShim),
        dockerContainer);
  }

  private record Shims(List<Process> ours, List<Process> foreignShims, Process foreignContainer) {
    void assertOnlyOursEnded(TeardownResult report) throws InterruptedException {
      for (Process p : ours) {
        assertThat(StandIns.endsWithin(p, 10))
            .as("this node's pid %d ended", p.pid())
            .isTrue();
      }
      for (Process p : foreignShims) {
        assertThat(p.isAlive()).as("foreign shim %d alive", p.pid()).isTrue();
        assertThat(report.kept(KeepReason.FOREIGN_SHIM))
            .anyMatch(k -> k.subject().startsWith("pid " + p.pid() + " "));
      }
      assertThat(foreignContainer.isAlive()).isTrue();
      assertThat(report.removed(TeardownAction.SHIM_KILLED))
          .anyMatch(r -> r.subject().startsWith("pid " + ours.get(0).pid() + " "));
    }

    void endForeign() throws InterruptedException {
      for (Process p : foreignShims) {
        StandIns.end(p);
      }
      StandIns.end(foreignContainer);
    }
  }

  /** A few files of the real /etc that no test may change, with their content. */
  private static SortedMap<String, String> realEtcSample() throws IOException {
    SortedMap<String, String> sample = new java.util.TreeMap<>();
    for (String name : List.of("passwd", "group", "hostname", "os-release")) {
      Path p = Path.of("/etc", name);
      if (Files.isRegularFile(p)) {
        sample.put(name, TreeImage.sha256(Files.readAllBytes(p)));
      }
    }
    return sample;
  }

  private static List<String> subjects(List<?> items) {
    return items.stream()
        .map(i -> i instanceof Kept k ? k.subject() : ((Removed) i).subject())
        .toList();
  }
}
