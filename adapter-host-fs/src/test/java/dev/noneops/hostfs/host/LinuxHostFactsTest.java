package dev.noneops.hostfs.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.host.HostInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LinuxHostFactsTest {

  @TempDir
  Path host;

  private Path proc;

  @BeforeEach
  void kernel() throws Exception {
    proc = host.resolve("proc");
    Files.createDirectories(proc.resolve("sys/kernel"));
    Files.writeString(proc.resolve("sys/kernel/osrelease"), "6.1.0-13-cloud-amd64\n");
    Files.writeString(proc.resolve("sys/kernel/hostname"), "node-7\n");
    Files.createDirectories(host.resolve("dev"));
    Files.createDirectories(host.resolve("etc"));
  }

  private HostInfo read(String arch) throws Exception {
    return new LinuxHostFacts(proc, host, arch).read();
  }

  private void touch(String relative) throws Exception {
    Path p = host.resolve(relative);
    Files.createDirectories(p.getParent());
    Files.createFile(p);
  }

  @Test
  void readsKernelReleaseHostnameAndArchitecture() throws Exception {
    HostInfo info = read("amd64");

    assertThat(info.kernelRelease()).isEqualTo("6.1.0-13-cloud-amd64");
    assertThat(info.hostname()).isEqualTo("node-7");
    assertThat(info.arch()).isEqualTo("amd64");
    assertThat(info.gpuDevices()).isEmpty();
    assertThat(info.kvmPresent()).isFalse();
    assertThat(info.upstreamNameservers()).isEmpty();
  }

  @Test
  void mapsJvmArchitecturesToGoNames() {
    assertThat(LinuxHostFacts.goArch("amd64")).isEqualTo("amd64");
    assertThat(LinuxHostFacts.goArch("x86_64")).isEqualTo("amd64");
    assertThat(LinuxHostFacts.goArch("aarch64")).isEqualTo("arm64");
    assertThat(LinuxHostFacts.goArch("ppc64le")).isEqualTo("ppc64le");
  }

  @Test
  void findsNvidiaDevicesAndThenTheDriNodesSorted() throws Exception {
    touch("dev/nvidiactl");
    touch("dev/nvidia0");
    touch("dev/nvidia-uvm");
    touch("dev/nvidia-caps/nvidia-cap2");
    touch("dev/nvidia-caps/nvidia-cap1");
    touch("dev/dri/renderD128");
    touch("dev/dri/card0");
    Files.createDirectories(host.resolve("dev/dri/by-path"));
    touch("dev/kvm");
    touch("dev/null");

    HostInfo info = read("arm64");

    assertThat(info.gpuDevices())
        .extracting(Path::toString)
        .containsExactly(
            "/dev/dri/card0",
            "/dev/dri/renderD128",
            "/dev/nvidia-caps/nvidia-cap1",
            "/dev/nvidia-caps/nvidia-cap2",
            "/dev/nvidia-uvm",
            "/dev/nvidia0",
            "/dev/nvidiactl");
    assertThat(info.kvmPresent()).isTrue();
  }

  @Test
  void ignoresDriNodesWithoutAnyNvidiaDevice() throws Exception {
    touch("dev/dri/card0");

    assertThat(read("amd64").gpuDevices()).isEmpty();
  }

  @Test
  void readsNameserversFromResolvConf() throws Exception {
    Files.writeString(
        host.resolve("etc/resolv.conf"),
        "# generated\nsearch corp\nnameserver 10.0.0.2\n;nameserver 9.9.9.9\nnameserver  10.0.0.3 \noptions edns0\n");

    assertThat(read("amd64").upstreamNameservers()).containsExactly("10.0.0.2", "10.0.0.3");
    assertThat(read("amd64").kubeletResolvConf()).isEqualTo(Path.of("/etc/resolv.conf"));
  }

  @Test
  void pointsKubeletAtSystemdResolvedsUpstreamListWhenResolvConfNamesOnlyTheStub()
      throws Exception {
    Files.writeString(
        host.resolve("etc/resolv.conf"),
        "# stub\nnameserver 127.0.0.53\noptions edns0 trust-ad\nsearch .\n");
    Files.createDirectories(host.resolve("run/systemd/resolve"));
    Files.writeString(
        host.resolve("run/systemd/resolve/resolv.conf"), "nameserver 168.63.129.16\n");

    assertThat(read("amd64").kubeletResolvConf())
        .isEqualTo(Path.of("/run/systemd/resolve/resolv.conf"));
  }

  @Test
  void keepsKubeletOnResolvConfWhenItNamesAServerBesideTheStubOrTheUpstreamListIsMissing()
      throws Exception {
    Files.writeString(host.resolve("etc/resolv.conf"), "nameserver 127.0.0.53\n");
    assertThat(read("amd64").kubeletResolvConf())
        .as("no upstream list")
        .isEqualTo(Path.of("/etc/resolv.conf"));

    Files.createDirectories(host.resolve("run/systemd/resolve"));
    Files.writeString(
        host.resolve("run/systemd/resolve/resolv.conf"), "nameserver 168.63.129.16\n");
    Files.writeString(
        host.resolve("etc/resolv.conf"), "nameserver 127.0.0.53\nnameserver 10.0.0.2\n");
    assertThat(read("amd64").kubeletResolvConf())
        .as("a server beside the stub")
        .isEqualTo(Path.of("/etc/resolv.conf"));
  }

  @Test
  void keepsKubeletOnResolvConfWhenThereIsNone() throws Exception {
    assertThat(read("amd64").kubeletResolvConf()).isEqualTo(Path.of("/etc/resolv.conf"));
  }

  @Test
  void followsSystemdResolvedToItsUpstreamsWhenResolvConfPointsAtTheStub() throws Exception {
    Files.writeString(
        host.resolve("etc/resolv.conf"), "nameserver 127.0.0.53\noptions edns0 trust-ad\n");
    Files.createDirectories(host.resolve("run/systemd/resolve"));
    Files.writeString(
        host.resolve("run/systemd/resolve/resolv.conf"),
        "nameserver 168.63.129.16\nnameserver 1.1.1.1\n");

    assertThat(read("amd64").upstreamNameservers()).containsExactly("168.63.129.16", "1.1.1.1");
    assertThat(read("amd64").kubeletResolvConf())
        .isEqualTo(Path.of("/run/systemd/resolve/resolv.conf"));
  }

  @Test
  void reportsNoNameserversWhenTheStubsUpstreamListIsMissing() throws Exception {
    Files.writeString(host.resolve("etc/resolv.conf"), "nameserver 127.0.0.53\n");

    assertThat(read("amd64").upstreamNameservers()).isEmpty();
  }

  @Test
  void readsTheRealHost() throws Exception {
    HostInfo info =
        new LinuxHostFacts(Path.of("/proc"), Path.of("/"), System.getProperty("os.arch")).read();
    Process uname = new ProcessBuilder("uname", "-r").start();
    String release = new String(uname.getInputStream().readAllBytes()).strip();

    assertThat(info.kernelRelease()).isEqualTo(release);
    assertThat(info.arch()).isIn("amd64", "arm64");
    assertThat(info.hostname()).isNotBlank();
  }
}
