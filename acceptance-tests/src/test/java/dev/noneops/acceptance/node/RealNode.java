package dev.noneops.acceptance.node;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.internal.files.OwnershipStore;
import dev.noneops.core.node.internal.files.SharedFileWriter;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A none node laid down by hand on a real temporary tree acting as the host root: the layout with
 * one version and {@code current}, marker-bearing units and a drop-in, the shared configuration
 * written through the ownership record as the node writes it, and data directories with pod
 * volumes. Foreign things are added by each test.
 */
final class RealNode {
  static final String MARKER = HostPaths.UNIT_MARKER;
  static final String VERSION = "1.31.4-abc123";

  final Path root;
  final Layout layout;
  final HostPaths paths;
  final HostFiles files;

  RealNode(Path root, HostFiles files) {
    this.root = root;
    this.layout = new Layout(root.resolve("opt/unbounded/node"));
    this.paths = new HostPaths(root, root.resolve("etc/systemd/system"));
    this.files = files;
  }

  Path host(String absolute) {
    return paths.host(absolute);
  }

  Path shimBinary() {
    return layout.binDir(VERSION).resolve("containerd-shim-runc-v2");
  }

  Path containerdAddress() {
    return paths.containerdRunDir().resolve("containerd.sock");
  }

  /** Lays down everything a running node has on disk. */
  RealNode install() throws IOException {
    Path bin = layout.binDir(VERSION);
    Files.createDirectories(bin);
    write(bin.resolve("kubelet"), "kubelet binary");
    write(bin.resolve("containerd"), "containerd binary");
    StandIns.installShimBinary(shimBinary());
    Files.createDirectories(layout.cniDir(VERSION));
    write(layout.cniDir(VERSION).resolve("bridge"), "bridge plugin");
    write(layout.manifest(VERSION), "{\"files\":[]}");
    Files.createSymbolicLink(layout.current(), Path.of(VERSION));
    write(layout.lock(), "");

    unit(
        "kubelet.service", "[Service]\nExecStart=" + layout.currentBin().resolve("kubelet") + "\n");
    unit(
        "containerd.service",
        "[Service]\nExecStart=" + layout.currentBin().resolve("containerd")
            + "\nKillMode=process\n");
    unit("localdns.service", "[Service]\nExecStart=/bin/true\n");
    Path dropIns = paths.kubeletDropInDir();
    Files.createDirectories(dropIns);
    write(
        dropIns.resolve("10-noneops.conf"), MARKER + "\n[Service]\nEnvironment=KUBELET_EXTRA=1\n");
    Path wants = paths.systemdDir().resolve("multi-user.target.wants");
    Files.createDirectories(wants);
    Files.createSymbolicLink(wants.resolve("kubelet.service"), paths.unit("kubelet.service"));

    SharedFileWriter writer =
        new SharedFileWriter(files, new OwnershipStore(files, paths.ownershipRecord()));
    writer.write(
        paths.containerdConfig(),
        bytes("version = 2\n[grpc]\naddress = \"" + containerdAddress() + "\"\n"),
        0644);
    writer.write(paths.sysctlFile(), bytes("net.ipv4.ip_forward = 1\n"), 0644);
    writer.write(paths.modulesLoadFile(), bytes("br_netfilter\noverlay\n"), 0644);
    writer.write(paths.kubeletDefaults(), bytes("KUBELET_FLAGS=\n"), 0644);
    writer.write(paths.apiServerCaCert(), bytes("-----BEGIN CERTIFICATE-----\n"), 0644);
    writer.write(paths.bootstrapKubeconfig(), bytes("apiVersion: v1\nkind: Config\n"), 0600);
    writer.link(
        paths.cniBinDir().resolve("bridge"),
        layout.currentCni().resolve("bridge").toString());

    Path pod = pod("pod-a");
    Files.createDirectories(pod.resolve("volumes/kubernetes.io~projected/token"));
    write(pod.resolve("volumes/kubernetes.io~projected/token/token"), "secret token");
    write(pod.resolve("etc-hosts"), "127.0.0.1 localhost\n");
    Path snapshot =
        paths.containerdStateDir().resolve("io.containerd.snapshotter.v1.overlayfs/snapshots/1/fs");
    Files.createDirectories(snapshot.resolve("usr/bin"));
    write(snapshot.resolve("usr/bin/app"), "app");
    Files.createSymbolicLink(snapshot.resolve("bin"), Path.of("/usr/bin"));
    Path task = paths.containerdRunDir().resolve("io.containerd.runtime.v2.task/k8s.io/abc");
    Files.createDirectories(task.resolve("rootfs"));
    write(task.resolve("config.json"), "{}");
    write(containerdAddress(), "");
    return this;
  }

  /** A pod's directory below {@code /var/lib/kubelet/pods}. */
  Path pod(String uid) {
    return paths.kubeletDir().resolve("pods").resolve(uid);
  }

  /** The things a node owns that must be gone after a complete teardown. */
  List<Path> ownedTraces() {
    return List.of(
        layout.root(),
        paths.unit("kubelet.service"),
        paths.unit("containerd.service"),
        paths.unit("localdns.service"),
        paths.kubeletDropInDir().resolve("10-noneops.conf"),
        paths.ownershipRecord(),
        paths.sysctlFile(),
        paths.modulesLoadFile(),
        paths.kubeletDefaults(),
        paths.apiServerCaCert(),
        paths.cniBinDir().resolve("bridge"),
        paths.kubeletDir(),
        paths.containerdStateDir(),
        paths.containerdRunDir(),
        paths.systemdDir().resolve("multi-user.target.wants/kubelet.service"));
  }

  void unit(String name, String body) throws IOException {
    Files.createDirectories(paths.systemdDir());
    write(paths.unit(name), MARKER + "\n" + body);
  }

  static void write(Path path, String content) throws IOException {
    Files.createDirectories(path.getParent());
    Files.writeString(path, content, StandardCharsets.UTF_8);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
