package dev.noneops.hostfs.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import jnr.posix.POSIXFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyscallsTest {

  private final Syscalls syscalls = Syscalls.load();

  @Test
  void refusesTheEmulatedPosixThatLacksKillAndExactErrors() {
    assertThatThrownBy(() -> Syscalls.requireNative(POSIXFactory.getJavaPOSIX()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("native");
  }

  @Test
  void killReportsAProcessThatIsGoneAsFalse() throws Exception {
    Process p = new ProcessBuilder("true").start();
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();

    assertThat(syscalls.kill(p.pid(), 0)).isFalse();
    assertThat(syscalls.kill(ProcessHandle.current().pid(), 0)).isTrue();
  }

  @Test
  void reportsErrnosThePortDoesNotNameWithTheirNumberAndText() {
    HostIOException e = syscalls.failure(122, "chmod", "/link");

    assertThat(e.errno()).isEqualTo(Errno.EOTHER);
    assertThat(e.getCause()).hasMessageContaining("errno 122").hasMessageContaining("quota");
  }

  @Test
  void reportsExactErrnosOfPathCalls(@TempDir Path dir) throws Exception {
    Path full = Files.createDirectories(dir.resolve("full/child"));

    assertThatThrownBy(() -> syscalls.rmdir(full.getParent()))
        .isInstanceOfSatisfying(HostIOException.class, e -> {
          assertThat(e.errno()).isEqualTo(Errno.ENOTEMPTY);
          assertThat(e.operation()).isEqualTo("rmdir");
          assertThat(e.target()).isEqualTo(full.getParent().toString());
        });
    assertThatThrownBy(() -> syscalls.mkdir(full, 0755))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EEXIST));
    assertThat(syscalls.unlinkOrErrno(full)).isEqualTo(-Errno.EISDIR.number());
    assertThat(syscalls.lstat(dir.resolve("absent"))).isEmpty();
  }
}
