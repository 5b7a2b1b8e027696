package dev.noneops.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.ports.kernel.KernelTuning;
import dev.noneops.ports.mounts.UnmountFlag;
import dev.noneops.ports.network.HostNetwork;
import dev.noneops.ports.network.NetworkLink;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.fs.SimFileSystem.MountKind;
import dev.noneops.testkit.process.ProcessSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Strictness of the simulated kernel: errnos, mounts, processes, cgroups, commands, modules, sysctls, links. */
class SimulatedKernelTest {
  private static final Duration T = Duration.ofSeconds(10);
  private final SimulatedHost host = SimulatedHost.create();
  private final CommandRunner commands = host.ports().commands();

  private CommandResult run(String... argv) throws IOException {
    return commands.run(Command.of(T, argv));
  }

  @Test
  void sysctlsOfTheBridgeNeedBrNetfilterLoadedFirst() throws IOException {
    host.fs()
        .seedFile(
            Path.of("/etc/sysctl.d/99-kubernetes.conf"),
            "net.bridge.bridge-nf-call-iptables = 1\nnet.ipv4.ip_forward = 1\n",
            0644);
    KernelTuning kernel = host.ports().kernel();
    assertThatThrownBy(kernel::applySysctlPresets)
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT))
        .hasMessageContaining("bridge-nf-call-iptables");
    assertThat(kernel.sysctl("net.ipv4.ip_forward"))
        .as("the keys the kernel has are set")
        .contains("1");
    kernel.loadModule("br_netfilter");
    kernel.applySysctlPresets();
    assertThat(host.kernel().sysctl("net.bridge.bridge-nf-call-iptables")).contains("1");
    host.crash();
    assertThat(host.kernel().loadedModules()).isEmpty();
  }

  @Test
  void aModuleTheKernelLacksCannotBeLoaded() {
    host.kernel().makeUnavailable("nvidia");
    assertThatThrownBy(() -> host.ports().kernel().loadModule("nvidia"))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT));
    assertThat(host.kernel().loadedModules()).isEmpty();
  }

  @Test
  void linkChangesAreCrashPointsAndLinkReadsAreNot() throws IOException {
    HostNetwork network = host.ports().network();
    long before = host.journal().crashPointCount();
    network.addDummyLink("localdns");
    network.link("localdns");
    network.assignAddress("localdns", "169.254.10.10/32");
    network.setUp("localdns");
    network.deleteLink("localdns");
    assertThat(host.journal().crashPointCount() - before).isEqualTo(4);
  }

  @Test
  void theNetworkIsLostInACrash() throws IOException {
    host.ports().network().addDummyLink("localdns");
    host.crash();
    assertThat(host.kernel().links()).extracting(NetworkLink::name).containsExactly("lo");
  }

  @Test
  void anUnknownProgramFailsLikeAMissingBinary() {
    assertThatThrownBy(() -> run("/usr/bin/nothing", "x"))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT));
  }

  @Test
  void aBindMountAcrossWhichRenameIsRefusedAndUnmountRestoresTheView() throws IOException {
    var files = host.ports().files();
    files.createDirectories(Path.of("/var/lib/kubelet/pods/p1/volumes/v"), 0750);
    files.createDirectories(Path.of("/srv/data"), 0755);
    files.writeDurably(Path.of("/srv/data/file"), "x", 0644);
    host.fs().bindMount(Path.of("/srv/data"), Path.of("/var/lib/kubelet/pods/p1/volumes/v"));
    Path viaBind = Path.of("/var/lib/kubelet/pods/p1/volumes/v/file");
    assertThat(files.readString(viaBind)).isEqualTo("x");
    assertThatThrownBy(() -> files.renameDurably(viaBind, Path.of("/srv/data/moved")))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EXDEV));
    assertThatThrownBy(() -> files.removeDurably(Path.of("/var/lib/kubelet/pods/p1/volumes/v")))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EBUSY));
    host.ports()
        .mounts()
        .unmount(Path.of("/var/lib/kubelet/pods/p1/volumes/v"), Set.of(UnmountFlag.NOFOLLOW));
    assertThat(files.list(Path.of("/var/lib/kubelet/pods/p1/volumes/v"))).isEmpty();
  }

  @Test
  void aDiskMountOutsideFstabIsGoneAfterACrashAndOneInFstabStays() throws IOException {
    host.fs().seedDirectory(Path.of("/mnt/a"), 0755);
    host.fs().seedDirectory(Path.of("/mnt/b"), 0755);
    host.fs().mount(Path.of("/mnt/a"), MountKind.DISK, "ext4", "/dev/sdb1", false);
    host.fs().mount(Path.of("/mnt/b"), MountKind.DISK_IN_FSTAB, "ext4", "/dev/sdc1", false);
    host.crash();
    assertThat(host.fs().mountEntries())
        .extracting(e -> e.mountPoint().toString())
        .contains("/mnt/b")
        .doesNotContain("/mnt/a");
  }

  @Test
  void aReadOnlyMountRefusesWritesWithErofs() throws IOException {
    host.fs().seedDirectory(Path.of("/ro"), 0755);
    host.fs().mount(Path.of("/ro"), MountKind.DISK, "squashfs", "/dev/loop0", true);
    assertThatThrownBy(() -> host.ports().files().writeDurably(Path.of("/ro/f"), "x", 0644))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EROFS));
  }

  @Test
  void symlinkLoopsFailWithEloop() throws IOException {
    host.fs().seedSymlink(Path.of("/loop/a"), "b");
    host.fs().seedSymlink(Path.of("/loop/b"), "a");
    assertThatThrownBy(() -> host.ports().files().read(Path.of("/loop/a")))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ELOOP));
  }

  @Test
  void aProcessRunningADeletedBinaryShowsItDeletedAndMapsIt() throws IOException {
    host.installExecutable(Path.of("/opt/node/v1/bin/shim"), "shim");
    host.fs().seedSymlink(Path.of("/opt/node/current"), "v1");
    long pid = host.spawn(
            ProcessSpec.of("/opt/node/current/bin/shim", "shim", "-namespace", "k8s.io")
                .inCgroup("/kubepods.slice/p1"))
        .pid();
    host.ports().files().removeDurably(Path.of("/opt/node/v1/bin/shim"));
    var info = host.ports().processes().get(pid).orElseThrow();
    assertThat(info.exe()).contains("/opt/node/v1/bin/shim (deleted)");
    assertThat(info.mappedFiles()).contains("/opt/node/v1/bin/shim");
  }

  @Test
  void withoutCgroupKillTheCgroupMustBeEmptiedByHand() throws IOException {
    host.installExecutable(Path.of("/usr/bin/pause"), "pause");
    long pid = host.spawn(ProcessSpec.of("/usr/bin/pause", "pause").inCgroup("/kubepods.slice/p1"))
        .pid();
    host.processes().setKillSupported(false);
    var cgroups = host.ports().cgroups();
    assertThat(cgroups.supportsKill()).isFalse();
    assertThatThrownBy(() -> cgroups.kill("/kubepods.slice/p1"))
        .isInstanceOf(HostIOException.class);
    assertThatThrownBy(() -> cgroups.remove("/kubepods.slice/p1"))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EBUSY));
    assertThat(host.ports().processes().signal(pid, 9)).isTrue();
    cgroups.remove("/kubepods.slice/p1");
    assertThat(cgroups.children("/kubepods.slice")).isEmpty();
  }

  @Test
  void aSnapshotDiffNamesEveryChange() throws IOException {
    host.fs().seedFile(Path.of("/etc/a"), "a", 0644);
    FileTreeSnapshot before = host.snapshot(Path.of("/etc"));
    host.ports().files().writeDurably(Path.of("/etc/a"), "changed", 0644);
    host.ports().files().writeDurably(Path.of("/etc/b"), "new", 0600);
    FileTreeSnapshot after = host.snapshot(Path.of("/etc"));
    assertThat(after).isNotEqualTo(before);
    assertThat(after.diff(before))
        .hasSize(2)
        .anySatisfy(l -> assertThat(l).startsWith("~ /etc/a"))
        .anySatisfy(l -> assertThat(l).startsWith("+ /etc/b"));
    assertThat(host.snapshot(Path.of("/etc"))).isEqualTo(after);
    assertThat(List.of(after.entry("/etc/b").mode())).containsExactly(0600);
  }
}
