package dev.noneops.hostfs.process;

import dev.noneops.hostfs.io.IoErrors;
import dev.noneops.hostfs.nativeio.Syscalls;
import dev.noneops.ports.Errno;
import dev.noneops.ports.process.ProcessInfo;
import dev.noneops.ports.process.ProcessTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The process table read from a proc file system (by default {@code /proc}); signals through
 * {@code kill(2)}. A process that exits while it is being read is left out, never an error.
 */
public final class ProcProcessTable implements ProcessTable {

  private final Path procRoot;
  private final Syscalls syscalls;

  public ProcProcessTable(Path procRoot, Syscalls syscalls) {
    this.procRoot = Objects.requireNonNull(procRoot, "procRoot");
    this.syscalls = Objects.requireNonNull(syscalls, "syscalls");
  }

  @Override
  public List<ProcessInfo> list() throws IOException {
    List<Long> pids = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(procRoot)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (isPid(name)) {
          pids.add(Long.parseLong(name));
        }
      }
    } catch (IOException e) {
      throw IoErrors.translate(e, "list", procRoot);
    }
    pids.sort(null);
    List<ProcessInfo> processes = new ArrayList<>(pids.size());
    for (long pid : pids) {
      read(pid).ifPresent(processes::add);
    }
    return processes;
  }

  @Override
  public Optional<ProcessInfo> get(long pid) throws IOException {
    if (pid <= 0) {
      throw new IllegalArgumentException("pid must be positive: " + pid);
    }
    return read(pid);
  }

  @Override
  public boolean signal(long pid, int signal) throws IOException {
    if (pid <= 0) {
      // kill(2) with 0 or a negative pid addresses process groups or everything: never intended here.
      throw new IllegalArgumentException("pid must be positive: " + pid);
    }
    if (signal < 0 || signal > 64) {
      throw new IllegalArgumentException("not a signal number: " + signal);
    }
    return syscalls.kill(pid, signal);
  }

  private Optional<ProcessInfo> read(long pid) throws IOException {
    Path dir = procRoot.resolve(Long.toString(pid));
    try {
      byte[] cmdline = Files.readAllBytes(dir.resolve("cmdline"));
      String cgroup = readOptional(dir.resolve("cgroup"));
      String maps = readOptional(dir.resolve("maps"));
      Optional<String> exe = exeOf(dir);
      return Optional.of(new ProcessInfo(pid, exe, ProcFormats.argv(cmdline), ProcFormats.unifiedCgroup(cgroup), ProcFormats.mappedFiles(maps)));
    } catch (IOException e) {
      if (vanished(e)) {
        return Optional.empty();
      }
      throw IoErrors.translate(e, "read", dir);
    }
  }

  /** The target of {@code exe}; empty for kernel threads and processes we may not inspect. */
  private static Optional<String> exeOf(Path dir) throws IOException {
    try {
      return Optional.of(Files.readSymbolicLink(dir.resolve("exe")).toString());
    } catch (IOException e) {
      int errno = IoErrors.errnoOf(e);
      if (errno == Errno.ENOENT.number() || errno == Errno.EACCES.number() || errno == Errno.EPERM.number()) {
        if (errno == Errno.ENOENT.number() && !Files.isDirectory(dir)) {
          throw e;
        }
        return Optional.empty();
      }
      throw e;
    }
  }

  /** A file's text, or "" when the kernel refuses to show it to us (EACCES, EPERM). */
  private static String readOptional(Path file) throws IOException {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      int errno = IoErrors.errnoOf(e);
      if (errno == Errno.EACCES.number() || errno == Errno.EPERM.number()) {
        return "";
      }
      throw e;
    }
  }

  /** Whether an error means the process exited under us (its directory is gone, or it is a zombie being reaped). */
  private static boolean vanished(IOException e) {
    int errno = IoErrors.errnoOf(e);
    return errno == Errno.ENOENT.number() || errno == Errno.ESRCH.number();
  }

  private static boolean isPid(String name) {
    if (name.isEmpty() || name.length() > 18) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      if (name.charAt(i) < '0' || name.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return "processes in " + procRoot;
  }
}
