package dev.noneops.hostfs.process;

import dev.noneops.hostfs.internal.io.IoErrors;
import dev.noneops.hostfs.nativeio.Syscalls;
import dev.noneops.ports.Errno;
import dev.noneops.ports.process.ProcessDetail;
import dev.noneops.ports.process.ProcessIdentity;
import dev.noneops.ports.process.ProcessInfo;
import dev.noneops.ports.process.ProcessTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The process table read from a proc file system (by default {@code /proc}); signals through
 * {@code kill(2)}. A process that exits while it is being read is left out, never an error.
 *
 * <p>A scan costs a few system calls per process, so it reads only what was asked for:
 * {@code cmdline}, {@code cgroup} and the {@code exe} link always, {@code maps} only for
 * {@link ProcessDetail#MAPPED_FILES} and only when the process has an address space (not for
 * kernel threads and zombies, whose {@code exe} is absent). Files are read into one reused buffer
 * and parsed from bytes, so the Strings a scan allocates are the ones it returns.
 */
public final class ProcProcessTable implements ProcessTable {
  private static final Path CMDLINE = Path.of("cmdline");
  private static final Path CGROUP = Path.of("cgroup");
  private static final Path MAPS = Path.of("maps");
  private static final Path EXE = Path.of("exe");
  private static final Path STAT = Path.of("stat");
  private static final int SINGLE_PROCESS_BUFFER = 4 * 1024;

  private final Path procRoot;
  private final Syscalls syscalls;

  public ProcProcessTable(Path procRoot, Syscalls syscalls) {
    this.procRoot = Objects.requireNonNull(procRoot, "procRoot");
    this.syscalls = Objects.requireNonNull(syscalls, "syscalls");
  }

  @Override
  public List<ProcessInfo> list() throws IOException {
    return list(ProcessDetail.all());
  }

  @Override
  public List<ProcessInfo> list(Set<ProcessDetail> details) throws IOException {
    boolean maps = Objects.requireNonNull(details, "details").contains(ProcessDetail.MAPPED_FILES);
    List<PidDir> pids = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(procRoot)) {
      for (Path entry : entries) {
        String name = String.valueOf(entry.getFileName());
        if (isPid(name)) {
          pids.add(new PidDir(Long.parseLong(name), entry));
        }
      }
    } catch (IOException e) {
      throw IoErrors.translate(e, "list", procRoot);
    }
    pids.sort(Comparator.comparingLong(PidDir::pid));
    ProcFileReader reader = new ProcFileReader();
    List<ProcessInfo> processes = new ArrayList<>(pids.size());
    for (PidDir p : pids) {
      read(p.pid(), p.dir(), maps, reader).ifPresent(processes::add);
    }
    return processes;
  }

  @Override
  public Optional<ProcessInfo> get(long pid) throws IOException {
    return get(pid, ProcessDetail.all());
  }

  @Override
  public Optional<ProcessInfo> get(long pid, Set<ProcessDetail> details) throws IOException {
    if (pid <= 0) {
      throw new IllegalArgumentException("pid must be positive: " + pid);
    }
    boolean maps = Objects.requireNonNull(details, "details").contains(ProcessDetail.MAPPED_FILES);
    return read(
        pid, procRoot.resolve(Long.toString(pid)), maps, new ProcFileReader(SINGLE_PROCESS_BUFFER));
  }

  @Override
  public ProcessIdentity self() throws IOException {
    return identityIn(procRoot.resolve("self"))
        .orElseThrow(() -> new IOException("no " + procRoot.resolve("self/stat")));
  }

  @Override
  public Optional<ProcessIdentity> identity(long pid) throws IOException {
    if (pid <= 0) {
      throw new IllegalArgumentException("pid must be positive: " + pid);
    }
    return identityIn(procRoot.resolve(Long.toString(pid)));
  }

  private static Optional<ProcessIdentity> identityIn(Path dir) throws IOException {
    Path stat = dir.resolve(STAT);
    String line;
    try {
      line = Files.readString(stat, StandardCharsets.UTF_8);
    } catch (IOException e) {
      if (vanished(e)) {
        return Optional.empty();
      }
      throw IoErrors.translate(e, "read", stat);
    }
    try {
      return Optional.of(ProcFormats.statIdentity(line.strip()));
    } catch (IllegalArgumentException e) {
      throw new IOException(stat + ": " + e.getMessage(), e);
    }
  }

  @Override
  public boolean signal(long pid, int signal) throws IOException {
    if (pid <= 0) {
      // kill(2) with 0 or a negative pid addresses process groups or everything: never intended
      // here.
      throw new IllegalArgumentException("pid must be positive: " + pid);
    }
    if (signal < 0 || signal > 64) {
      throw new IllegalArgumentException("not a signal number: " + signal);
    }
    return syscalls.kill(pid, signal);
  }

  private Optional<ProcessInfo> read(long pid, Path dir, boolean withMaps, ProcFileReader reader)
      throws IOException {
    try {
      reader.read(dir.resolve(CMDLINE));
      List<String> argv = ProcFormats.argv(reader.bytes(), reader.length());
      Optional<String> exe;
      boolean addressSpace = true;
      try {
        exe = Optional.of(Files.readSymbolicLink(dir.resolve(EXE)).toString());
      } catch (IOException e) {
        int errno = IoErrors.errnoOf(e);
        if (errno == Errno.ENOENT.number()) {
          if (!Files.isDirectory(dir)) {
            throw e;
          }
          // A kernel thread or a zombie: no executable because no address space, so nothing mapped
          // either.
          exe = Optional.empty();
          addressSpace = false;
        } else if (errno == Errno.EACCES.number() || errno == Errno.EPERM.number()) {
          exe = Optional.empty();
        } else {
          throw e;
        }
      }
      String cgroup = readOptional(dir.resolve(CGROUP), reader)
          ? ProcFormats.unifiedCgroup(reader.bytes(), reader.length())
          : "";
      List<String> mapped = List.of();
      if (withMaps && addressSpace && readOptional(dir.resolve(MAPS), reader)) {
        mapped = ProcFormats.mappedFiles(reader.bytes(), reader.length());
      }
      return Optional.of(new ProcessInfo(pid, exe, argv, cgroup, mapped));
    } catch (IOException e) {
      if (vanished(e)) {
        return Optional.empty();
      }
      throw IoErrors.translate(e, "read", dir);
    }
  }

  /** Reads a file into {@code reader}; false when the kernel refuses to show it to us (EACCES, EPERM). */
  private static boolean readOptional(Path file, ProcFileReader reader) throws IOException {
    try {
      reader.read(file);
      return true;
    } catch (IOException e) {
      int errno = IoErrors.errnoOf(e);
      if (errno == Errno.EACCES.number() || errno == Errno.EPERM.number()) {
        return false;
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

  /** A process directory found while listing. */
  private record PidDir(long pid, Path dir) {}

  @Override
  public String toString() {
    return "processes in " + procRoot;
  }
}
