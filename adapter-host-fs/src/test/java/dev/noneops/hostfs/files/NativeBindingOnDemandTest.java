package dev.noneops.hostfs.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.hostfs.mounts.MountIdSource;
import dev.noneops.hostfs.mounts.MountLookup;
import dev.noneops.hostfs.nativeio.NonNativeBinding;
import dev.noneops.hostfs.nativeio.Syscalls;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads (lstat included) need no native binding; the first operation that does makes it, once, or fails clearly. */
class NativeBindingOnDemandTest {

  private static final MountIdSource NO_MOUNT_LOOKUPS = path -> {
    throw new AssertionError("mount id asked for " + path);
  };

  @TempDir
  Path dir;

  private final AtomicInteger bindingsMade = new AtomicInteger();

  /** Counts how often the binding is asked for; the real one otherwise. */
  private final Supplier<Syscalls> countingBinding = () -> {
    bindingsMade.incrementAndGet();
    return Syscalls.load();
  };

  private static final Supplier<Syscalls> FORBIDDEN_BINDING = () -> {
    throw new AssertionError("a read asked for the native binding");
  };

  @Test
  void existsReadReadLinkListAndOpenReadNeverAskForTheBinding() throws Exception {
    Path file = Files.writeString(dir.resolve("applied.json"), "{\"a\":1}");
    Path sub = Files.createDirectory(dir.resolve("1.2.3"));
    Path current = Files.createSymbolicLink(dir.resolve("current"), Path.of("1.2.3/"));
    Path dangling = Files.createSymbolicLink(dir.resolve("dangling"), Path.of("nowhere"));
    HostFiles files = new PosixHostFiles(FORBIDDEN_BINDING, NO_MOUNT_LOOKUPS);

    assertThat(files.exists(file)).isTrue();
    assertThat(files.exists(sub)).isTrue();
    assertThat(files.exists(current)).isTrue();
    assertThat(files.exists(dangling)).isTrue();
    assertThat(files.exists(dir.resolve("journal.json"))).isFalse();
    assertThat(files.read(file)).isEqualTo("{\"a\":1}".getBytes());
    assertThat(files.readString(file)).isEqualTo("{\"a\":1}");
    assertThat(files.readLink(current)).isEqualTo("1.2.3");
    assertThat(files.readLink(dangling)).isEqualTo("nowhere");
    assertThat(files.list(dir)).containsExactly("1.2.3", "applied.json", "current", "dangling");
    try (InputStream in = files.openRead(file)) {
      assertThat(in.readAllBytes()).hasSize(7);
    }
  }

  @Test
  void readErrorsAreRaisedWithTheirErrnoWithoutTheBinding() throws Exception {
    Path file = Files.writeString(dir.resolve("file"), "x");
    Path link = Files.createSymbolicLink(dir.resolve("link"), Path.of("nowhere"));
    HostFiles files = new PosixHostFiles(FORBIDDEN_BINDING, NO_MOUNT_LOOKUPS);

    assertThatThrownBy(() -> files.read(dir.resolve("missing")))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT));
    assertThatThrownBy(() -> files.readLink(file))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL));
    assertThatThrownBy(() -> files.read(link))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT));
    assertThatThrownBy(() -> files.exists(Path.of("relative")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("absolute");
  }

  @Test
  void existsAnswersAndFailsExactlyAsLstatDoes() throws Exception {
    Path file = Files.writeString(dir.resolve("file"), "x");
    Files.createSymbolicLink(dir.resolve("loop-a"), Path.of("loop-b"));
    Files.createSymbolicLink(dir.resolve("loop-b"), Path.of("loop-a"));
    List<Path> cases = List.of(
        file,
        dir,
        Files.createSymbolicLink(dir.resolve("dangling"), Path.of("nowhere")),
        dir.resolve("loop-a"),
        dir.resolve("missing"),
        dir.resolve("missing/child"),
        file.resolve("child"),
        dir.resolve("loop-a/child"),
        dir.resolve("x".repeat(300)));
    HostFiles nio = new PosixHostFiles(FORBIDDEN_BINDING, NO_MOUNT_LOOKUPS);
    HostFiles nativeLstat =
        new PosixHostFiles(Syscalls.load(), new MountLookup(Path.of("/proc/self/mountinfo")));

    for (Path path : cases) {
      assertThat(outcome(() -> nio.exists(path)))
          .as(path.toString())
          .isEqualTo(outcome(() -> nativeLstat.lstat(path).isPresent()));
    }
    assertThat(outcome(() -> nio.exists(file.resolve("child")))).isEqualTo("ENOTDIR lstat");
    assertThat(outcome(() -> nio.exists(dir.resolve("loop-a/child")))).isEqualTo("ELOOP lstat");
    assertThat(outcome(() -> nio.exists(dir.resolve("x".repeat(300)))))
        .isEqualTo("ENAMETOOLONG lstat");
  }

  @Test
  void lstatNeedsNoBindingAndReportsWhatTheNativeLstatReports() throws Exception {
    Path file = Files.writeString(dir.resolve("file"), "12345");
    Process chmod = new ProcessBuilder("chmod", "2750", file.toString()).start();
    assertThat(chmod.waitFor()).isZero();
    Path fifo = dir.resolve("fifo");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(mkfifo.waitFor()).isZero();
    Files.createSymbolicLink(dir.resolve("loop-a"), Path.of("loop-b"));
    Files.createSymbolicLink(dir.resolve("loop-b"), Path.of("loop-a"));
    List<Path> cases = List.of(
        file,
        dir,
        fifo,
        Path.of("/dev/null"),
        Path.of("/proc/self"),
        Files.createSymbolicLink(dir.resolve("dangling"), Path.of("no/such/target")),
        dir.resolve("loop-a"),
        dir.resolve("missing"),
        dir.resolve("missing/child"),
        file.resolve("child"),
        dir.resolve("loop-a/child"),
        dir.resolve("x".repeat(300)));
    MountLookup mounts = new MountLookup(Path.of("/proc/self/mountinfo"));
    HostFiles withoutBinding = new PosixHostFiles(FORBIDDEN_BINDING, mounts);
    HostFiles nativeLstat = new PosixHostFiles(Syscalls.load(), mounts);

    for (Path path : cases) {
      assertThat(metaOrFailure(() -> withoutBinding.lstat(path)))
          .as(path.toString())
          .isEqualTo(metaOrFailure(() -> nativeLstat.lstat(path)));
    }
    FileMeta meta = withoutBinding.lstat(file).orElseThrow();
    assertThat(meta.mode()).isEqualTo(02750);
    assertThat(meta.hasTimes()).isTrue();
    assertThat(metaOrFailure(() -> withoutBinding.lstat(file.resolve("child"))))
        .isEqualTo("ENOTDIR lstat");
  }

  private interface MetaRead {
    Optional<FileMeta> get() throws IOException;
  }

  /** The metadata read, or the errno and operation of the failure. */
  private static String metaOrFailure(MetaRead read) {
    try {
      return String.valueOf(read.get());
    } catch (HostIOException e) {
      return e.errno() + " " + e.operation();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void theFirstNativeOperationMakesTheBindingOnceForEveryThread() throws Exception {
    HostFiles files =
        new PosixHostFiles(countingBinding, new MountLookup(Path.of("/proc/self/mountinfo")));
    Path file = Files.writeString(dir.resolve("file"), "x");
    files.exists(file);
    assertThat(bindingsMade).hasValue(0);

    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> calls = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        int mode = 0600 + i;
        calls.add(pool.submit(() -> {
          start.await();
          files.chmod(file, mode);
          return files.lstat(file);
        }));
      }
      start.countDown();
      for (Future<?> call : calls) {
        assertThat((Optional<?>) call.get()).isPresent();
      }
    } finally {
      pool.shutdownNow();
    }
    files.writeDurably(dir.resolve("other"), "y", 0644);

    assertThat(bindingsMade).hasValue(1);
  }

  @Test
  void withoutNativePosixTheFirstNativeOperationFailsClearlyBeforeTouchingAnything()
      throws Exception {
    HostFiles files = new PosixHostFiles(
        () -> NonNativeBinding.attempt(), new MountLookup(Path.of("/proc/self/mountinfo")));
    Path file = Files.writeString(dir.resolve("file"), "x");
    Path target = dir.resolve("kubelet.conf");

    assertThat(files.exists(file)).isTrue();
    assertThat(files.readString(file)).isEqualTo("x");
    assertThat(files.lstat(file)).isPresent();
    for (NativeCall call : List.<NativeCall>of(
        () -> files.writeDurably(target, "a=b", 0644),
        () -> files.chmod(file, 0600),
        () -> files.chown(file, 0, 0),
        () -> files.createDirectories(dir.resolve("a/b"), 0755),
        () -> files.symlinkDurably(dir.resolve("current"), "1.2.3"),
        () -> files.removeDurably(file),
        () -> files.tryLock(dir.resolve("lock")))) {
      assertThatThrownBy(call::run)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("jnr-posix could not load its native library")
          .hasMessageContaining("noexec");
    }
    assertThat(files.list(dir)).containsExactly("file");
  }

  private interface NativeCall {
    void run() throws IOException;
  }

  private interface Answer {
    boolean get() throws IOException;
  }

  /** "true", "false" or the errno and operation of the failure. */
  private static String outcome(Answer answer) {
    try {
      return Boolean.toString(answer.get());
    } catch (HostIOException e) {
      return e.errno() + " " + e.operation();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
