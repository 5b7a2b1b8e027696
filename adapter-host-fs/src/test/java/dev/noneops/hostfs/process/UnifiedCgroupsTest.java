package dev.noneops.hostfs.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.hostfs.nativeio.Syscalls;
import dev.noneops.hostfs.testing.PrivateMountNamespace;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.process.Cgroups;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnifiedCgroupsTest {

  @Nested
  class OnAFakeHierarchy {

    @TempDir
    Path root;

    @TempDir
    Path kernel;

    private Cgroups cgroups() {
      return new UnifiedCgroups(root, kernel.resolve("osrelease"), Syscalls.load());
    }

    private Path cgroup(String path, String procs, boolean withKill) throws IOException {
      Path dir = Files.createDirectories(root.resolve(path.substring(1)));
      Files.writeString(dir.resolve("cgroup.procs"), procs);
      if (withKill) {
        Files.writeString(dir.resolve("cgroup.kill"), "");
      }
      return dir;
    }

    @Test
    void isAvailableOnlyWithAUnifiedHierarchysControllersFile() throws Exception {
      assertThat(cgroups().available()).isFalse();

      Files.writeString(root.resolve("cgroup.controllers"), "cpu io memory pids\n");

      assertThat(cgroups().available()).isTrue();
    }

    @Test
    void listsChildrenSortedAndPidsOfOneCgroupOnly() throws Exception {
      cgroup("/kubepods.slice", "", true);
      cgroup("/kubepods.slice/pod-b", "300\n", true);
      cgroup("/kubepods.slice/pod-a", "100\n200\n", true);
      cgroup("/kubepods.slice/pod-a/container", "400\n", true);
      Files.writeString(root.resolve("cgroup.procs"), "1\n");

      assertThat(cgroups().children("/")).containsExactly("/kubepods.slice");
      assertThat(cgroups().children("/kubepods.slice"))
          .containsExactly("/kubepods.slice/pod-a", "/kubepods.slice/pod-b");
      assertThat(cgroups().pids("/kubepods.slice/pod-a")).containsExactly(100L, 200L);
      assertThat(cgroups().pids("/")).containsExactly(1L);
      assertThat(cgroups().exists("/kubepods.slice/pod-a/container")).isTrue();
      assertThat(cgroups().exists("/kubepods.slice/pod-c")).isFalse();
    }

    @Test
    void killsByWritingOneToCgroupKill() throws Exception {
      Path pod = cgroup("/pod", "5\n", true);

      cgroups().kill("/pod");

      assertThat(Files.readString(pod.resolve("cgroup.kill"))).isEqualTo("1");
    }

    @Test
    void findsCgroupKillInAChildWhenTheRootHasNone() throws Exception {
      Files.writeString(kernel.resolve("osrelease"), "6.1.0-13-amd64\n");
      cgroup("/old-kernel", "", false);
      assertThat(cgroups().supportsKill()).isFalse();
      Files.writeString(root.resolve("old-kernel/cgroup.kill"), "");
      assertThat(cgroups().supportsKill()).isTrue();
    }

    @Test
    void asksTheKernelReleaseWhenNoCgroupShowsTheFile() throws Exception {
      Files.writeString(kernel.resolve("osrelease"), "5.10.0-28-cloud-amd64\n");
      assertThat(cgroups().supportsKill()).isFalse();
      Files.writeString(kernel.resolve("osrelease"), "5.14.0\n");
      assertThat(cgroups().supportsKill()).isTrue();
      Files.writeString(kernel.resolve("osrelease"), "6.18.44-fc\n");
      assertThat(cgroups().supportsKill()).isTrue();
    }

    @Test
    void reportsErrnoForMissingCgroups() {
      assertThatThrownBy(() -> cgroups().pids("/absent"))
          .isInstanceOfSatisfying(
              HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT));
      assertThatThrownBy(() -> cgroups().kill("/absent"))
          .isInstanceOfSatisfying(
              HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT));
      assertThatThrownBy(() -> cgroups().remove("/absent"))
          .isInstanceOfSatisfying(
              HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT));
    }

    @Test
    void rejectsPathsThatLeaveTheHierarchy() {
      assertThatThrownBy(() -> cgroups().exists("relative"))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> cgroups().children("/a/../../etc"))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> cgroups().remove("/")).isInstanceOf(IllegalArgumentException.class);
    }
  }

  /**
   * Against the kernel's cgroup2 file system, mounted on a temporary directory inside the test
   * JVM's private mount namespace. The cgroup created there is a transient child of the shared
   * hierarchy holding only a sleep process this test starts; it is killed and removed afterwards.
   */
  @Nested
  class OnTheKernelsCgroup2 {

    @TempDir
    Path mountPoint;

    private Cgroups cgroups;
    private String name;
    private Process sleeper;

    @BeforeEach
    void mountCgroup2() throws Exception {
      PrivateMountNamespace.assumeActive();
      PrivateMountNamespace.mount("-t", "cgroup2", "none", mountPoint.toString());
      cgroups =
          new UnifiedCgroups(mountPoint, Path.of("/proc/sys/kernel/osrelease"), Syscalls.load());
      name = "/noneops-test-" + UUID.randomUUID();
    }

    @AfterEach
    void cleanUp() throws Exception {
      if (sleeper != null) {
        sleeper.destroyForcibly();
        sleeper.waitFor(10, TimeUnit.SECONDS);
      }
      if (cgroups != null && cgroups.exists(name)) {
        awaitEmpty();
        cgroups.remove(name);
      }
      PrivateMountNamespace.detachAllBelow(mountPoint);
    }

    private void awaitEmpty() throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!cgroups.pids(name).isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
    }

    @Test
    void killsEveryProcessOfACgroupAndRemovesItOnceEmpty() throws Exception {
      assertThat(cgroups.available()).isTrue();
      Files.createDirectory(mountPoint.resolve(name.substring(1)));
      sleeper = new ProcessBuilder("sleep", "300").start();
      Files.writeString(
          mountPoint.resolve(name.substring(1)).resolve("cgroup.procs"),
          Long.toString(sleeper.pid()));

      assertThat(cgroups.children("/")).contains(name);
      assertThat(cgroups.pids(name)).containsExactly(sleeper.pid());
      assertThatThrownBy(() -> cgroups.remove(name))
          .isInstanceOfSatisfying(
              HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EBUSY));
      assertThat(cgroups.supportsKill()).isTrue();

      cgroups.kill(name);

      assertThat(sleeper.waitFor(10, TimeUnit.SECONDS)).isTrue();
      assertThat(sleeper.exitValue()).isEqualTo(128 + 9);
      awaitEmpty();
      cgroups.remove(name);
      assertThat(cgroups.exists(name)).isFalse();
    }
  }
}
