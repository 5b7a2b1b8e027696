package dev.noneops.core.node;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.internal.files.OwnershipStore;
import dev.noneops.core.node.internal.files.SharedFileWriter;
import dev.noneops.ports.files.FileType;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fs.SimFileSystem;
import dev.noneops.testkit.fs.SimFileSystem.MountKind;
import dev.noneops.testkit.process.ProcessSpec;
import dev.noneops.testkit.process.SimProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * A running none node on a {@link SimulatedHost}, laid down the way provisioning and starting
 * leave it: one installed version with {@code current}, marker-bearing units enabled and active
 * (containerd with {@code KillMode=process}), the shared configuration written through the
 * ownership record, data directories with pods whose volumes and container root file systems are
 * mounted, a shim per pod in containerd.service's cgroup and the pods' containers in
 * {@code /kubepods.slice}.
 */
final class SimNode {
  static final String VERSION = "1.31.4-abc123";
  static final String MARKER = HostPaths.UNIT_MARKER;
  static final List<String> UNITS =
      List.of("localdns.service", "containerd.service", "kubelet.service");
  static final String CONTAINERD_CGROUP = "/system.slice/containerd.service";

  final SimulatedHost host;
  final Layout layout = Layout.defaultLayout();
  final HostPaths paths = HostPaths.realHost();
  final List<SimProcess> shims = new ArrayList<>();
  final List<SimProcess> containers = new ArrayList<>();

  private SimNode(SimulatedHost host) {
    this.host = host;
  }

  /** A host running a node with two pods. */
  static SimNode running() throws IOException {
    return running(SimulatedHost.create());
  }

  static SimNode running(SimulatedHost host) throws IOException {
    SimNode node = new SimNode(host);
    node.install();
    node.start();
    node.pod("pod-a", "aaa");
    node.pod("pod-b", "bbb");
    return node;
  }

  SimFileSystem fs() {
    return host.fs();
  }

  HostFiles files() {
    return host.ports().files();
  }

  Systemd systemd() {
    return host.ports().systemd();
  }

  Teardown teardown() {
    return teardown(TeardownOptions.defaults());
  }

  Teardown teardown(TeardownOptions settings) {
    return new Teardown(
        host.ports(), layout, paths, settings, LoggerFactory.getLogger(SimNode.class));
  }

  Path shimBinary() {
    return layout.binDir(VERSION).resolve("containerd-shim-runc-v2");
  }

  Path containerdAddress() {
    return paths.containerdRunDir().resolve("containerd.sock");
  }

  Path podDir(String uid) {
    return paths.kubeletDir().resolve("pods").resolve(uid);
  }

  static String podCgroup(String uid) {
    return "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" + uid + ".slice";
  }

  private void install() throws IOException {
    for (String binary :
        List.of("kubelet", "containerd", "containerd-shim-runc-v2", "runc", "coredns")) {
      host.installExecutable(
          layout.binDir(VERSION).resolve(binary), "#!/bin/sh\n# " + binary + " " + VERSION + "\n");
    }
    fs().seedFile(layout.cniDir(VERSION).resolve("bridge"), "bridge plugin", 0755);
    fs().seedFile(layout.manifest(VERSION), "{\"files\":[]}", 0644);
    fs().seedSymlink(layout.current(), VERSION);

    unit(
        "localdns.service",
        "ExecStart=" + layout.currentBin().resolve("coredns")
            + " -conf /etc/unbounded/localdns/Corefile\n");
    unit(
        "containerd.service",
        "ExecStart=" + layout.currentBin().resolve("containerd")
            + "\nKillMode=process\nDelegate=yes\n");
    unit(
        "kubelet.service",
        "ExecStart=" + layout.currentBin().resolve("kubelet")
            + " $KUBELET_FLAGS\nEnvironmentFile=-/etc/default/kubelet\n");
    fs().seedFile(
            paths.kubeletDropInDir().resolve("10-noneops.conf"),
            MARKER + "\n[Service]\nEnvironment=KUBELET_EXTRA=1\n",
            0644);

    SharedFileWriter writer =
        new SharedFileWriter(files(), new OwnershipStore(files(), paths.ownershipRecord()));
    writer.write(
        paths.containerdConfig(),
        bytes("version = 2\n[grpc]\naddress = \"" + containerdAddress() + "\"\n"),
        0644);
    writer.write(paths.sysctlFile(), bytes("net.ipv4.ip_forward = 1\n"), 0644);
    writer.write(paths.modulesLoadFile(), bytes("br_netfilter\noverlay\n"), 0644);
    writer.write(
        paths.kubeletDefaults(),
        bytes("KUBELET_FLAGS=--config=/var/lib/kubelet/config.yaml\n"),
        0644);
    writer.write(paths.apiServerCaCert(), bytes("-----BEGIN CERTIFICATE-----\n"), 0644);
    writer.write(
        paths.localDnsConfigDir().resolve("Corefile"),
        bytes(".:53 {\n  forward . 1.1.1.1\n}\n"),
        0644);
    writer.write(paths.bootstrapKubeconfig(), bytes("apiVersion: v1\nkind: Config\n"), 0600);
    writer.link(
        paths.cniBinDir().resolve("bridge"),
        layout.currentCni().resolve("bridge").toString());

    fs().seedFile(paths.kubeletDir().resolve("config.yaml"), "kind: KubeletConfiguration\n", 0644);
    Path content =
        paths.containerdStateDir().resolve("io.containerd.content.v1.content/blobs/sha256");
    fs().seedFile(content.resolve("0123abcd"), "layer", 0444);
    Path snapshot =
        paths.containerdStateDir().resolve("io.containerd.snapshotter.v1.overlayfs/snapshots/1/fs");
    fs().seedFile(snapshot.resolve("usr/bin/app"), "app", 0755);
    fs().seedSymlink(snapshot.resolve("bin"), "/usr/bin");
    fs().seedNode(containerdAddress(), FileType.SOCKET, 0660, 0, 0);
  }

  private void start() {
    systemd().enable(UNITS);
    for (String unit : UNITS) {
      systemd().start(unit, Duration.ofMinutes(1));
    }
  }

  /** A pod: its volumes (a projected token, an emptyDir on tmpfs), its container's mounted rootfs, shim and process. */
  void pod(String uid, String containerId) throws IOException {
    Path pod = podDir(uid);
    fs().seedFile(pod.resolve("volumes/kubernetes.io~projected/token/token"), "secret token", 0600);
    fs().seedFile(pod.resolve("etc-hosts"), "127.0.0.1 localhost\n", 0644);
    Path emptyDir = pod.resolve("volumes/kubernetes.io~empty-dir/cache");
    fs().seedDirectory(emptyDir, 0777);
    fs().mount(emptyDir, MountKind.TMPFS, "tmpfs", "tmpfs", false);
    fs().seedFile(emptyDir.resolve("cache.bin"), "cache", 0644);
    Path bundle = paths
        .containerdRunDir()
        .resolve("io.containerd.runtime.v2.task/k8s.io")
        .resolve(containerId);
    fs().seedFile(bundle.resolve("config.json"), "{}", 0644);
    fs().seedDirectory(bundle.resolve("rootfs"), 0755);
    fs().mount(bundle.resolve("rootfs"), MountKind.DISK, "overlay", "overlay", false);
    fs().seedFile(bundle.resolve("rootfs/app"), "app", 0755);
    shims.add(host.spawn(ProcessSpec.of(
            shimBinary().toString(),
            shimBinary().toString(),
            "-namespace",
            "k8s.io",
            "-id",
            containerId,
            "-address",
            containerdAddress().toString())
        .inCgroup(CONTAINERD_CGROUP)));
    containers.add(host.spawn(ProcessSpec.of(bundle.resolve("rootfs/app").toString(), "/app")
        .inCgroup(podCgroup(uid) + "/cri-containerd-" + containerId + ".scope")));
  }

  /** Every path this node owns; none may remain after a complete teardown. */
  List<Path> ownedPaths() {
    List<Path> owned = new ArrayList<>(List.of(
        layout.root(),
        paths.kubeletDir(),
        paths.containerdStateDir(),
        paths.containerdRunDir(),
        paths.ownershipRecord(),
        paths.containerdConfig(),
        paths.sysctlFile(),
        paths.modulesLoadFile(),
        paths.kubeletDefaults(),
        paths.apiServerCaCert(),
        paths.localDnsConfigDir(),
        paths.cniBinDir().resolve("bridge"),
        paths.kubeletDropInDir()));
    for (String unit : UNITS) {
      owned.add(paths.unit(unit));
      owned.add(paths.systemdDir().resolve("multi-user.target.wants").resolve(unit));
    }
    return owned;
  }

  void unit(String name, String service) throws IOException {
    fs().seedFile(
            paths.unit(name),
            MARKER + "\n[Unit]\nDescription=" + name + "\n[Service]\n" + service
                + "[Install]\nWantedBy=multi-user.target\n",
            0644);
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
