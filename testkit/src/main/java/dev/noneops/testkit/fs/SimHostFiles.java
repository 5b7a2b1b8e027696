package dev.noneops.testkit.fs;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.files.HostLock;
import dev.noneops.testkit.gate.PortGate;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The {@link HostFiles} port over the simulated file system; every call goes through the gate. A
 * caller that does not run as root reads as the kernel lets a user other than a file's owner:
 * a path below a directory others may not search, or a file or directory others may not read,
 * gives EACCES ({@code lstat}, {@code exists} and {@code readLink} need the search only). Writes
 * are not checked (the node writes as root, and refuses to start otherwise).
 */
public final class SimHostFiles implements HostFiles {
  private static final String PORT = "files";

  private final PortGate gate;
  private final SimFileSystem fs;
  private final LongSupplier caller;
  private final BooleanSupplier root;

  /** A port whose caller runs as root. */
  public SimHostFiles(PortGate gate, SimFileSystem fs, LongSupplier caller) {
    this(gate, fs, caller, () -> true);
  }

  /**
   * @param caller the pid of the process calling the port, which a lock it takes names
   * @param root whether the caller runs as root (else others' permissions apply to its reads)
   */
  public SimHostFiles(PortGate gate, SimFileSystem fs, LongSupplier caller, BooleanSupplier root) {
    this.gate = gate;
    this.fs = fs;
    this.caller = caller;
    this.root = root;
  }

  @Override
  public Optional<FileMeta> lstat(Path path) throws IOException {
    return gate.call(PORT, "lstat", false, PortGate.args(path), () -> {
      searchable(path, "lstat");
      return fs.lstat(path);
    });
  }

  @Override
  public boolean exists(Path path) throws IOException {
    return gate.call(PORT, "exists", false, PortGate.args(path), () -> {
      searchable(path, "lstat");
      return fs.lstat(path).isPresent();
    });
  }

  @Override
  public byte[] read(Path path) throws IOException {
    return gate.call(PORT, "read", false, PortGate.args(path), () -> {
      readable(path, "open");
      return fs.read(path);
    });
  }

  @Override
  public InputStream openRead(Path path) throws IOException {
    return gate.call(PORT, "openRead", false, PortGate.args(path), () -> {
      readable(path, "open");
      return new ByteArrayInputStream(fs.read(path));
    });
  }

  @Override
  public List<String> list(Path dir) throws IOException {
    return gate.call(PORT, "list", false, PortGate.args(dir), () -> {
      readable(dir, "opendir");
      return fs.list(dir);
    });
  }

  @Override
  public String readLink(Path link) throws IOException {
    return gate.call(PORT, "readLink", false, PortGate.args(link), () -> {
      searchable(link, "readlink");
      return fs.readLink(link);
    });
  }

  /** EACCES unless the caller is root or others may search every directory above {@code path}. */
  private void searchable(Path path, String op) throws IOException {
    if (root.getAsBoolean()) {
      return;
    }
    Path absolute = path.toAbsolutePath().normalize();
    for (Path dir = absolute.getParent(); dir != null; dir = dir.getParent()) {
      Optional<FileMeta> meta = fs.stat(dir);
      if (meta.isPresent() && meta.get().isDirectory() && (meta.get().mode() & 0001) == 0) {
        throw new HostIOException(Errno.EACCES, op, path.toString());
      }
    }
  }

  /** As {@link #searchable}, and EACCES unless others may read {@code path} itself. */
  private void readable(Path path, String op) throws IOException {
    if (root.getAsBoolean()) {
      return;
    }
    searchable(path, op);
    Optional<FileMeta> meta = fs.stat(path);
    if (meta.isPresent() && (meta.get().mode() & 0004) == 0) {
      throw new HostIOException(Errno.EACCES, op, path.toString());
    }
  }

  @Override
  public long writeDurably(Path path, InputStream content, int mode) throws IOException {
    return gate.call(
        PORT,
        "writeDurably",
        true,
        PortGate.args(path, octal(mode)),
        () -> fs.writeDurably(path, content, mode));
  }

  @Override
  public void createDirectories(Path dir, int mode) throws IOException {
    gate.call(PORT, "createDirectories", true, PortGate.args(dir, octal(mode)), () -> {
      fs.createDirectories(dir, mode);
      return null;
    });
  }

  @Override
  public void symlinkDurably(Path link, String target) throws IOException {
    gate.call(PORT, "symlinkDurably", true, PortGate.args(link, target), () -> {
      fs.symlinkDurably(link, target);
      return null;
    });
  }

  @Override
  public void renameDurably(Path from, Path to) throws IOException {
    gate.call(PORT, "renameDurably", true, PortGate.args(from, to), () -> {
      fs.renameDurably(from, to);
      return null;
    });
  }

  @Override
  public void removeDurably(Path path) throws IOException {
    gate.call(PORT, "removeDurably", true, PortGate.args(path), () -> {
      fs.removeDurably(path);
      return null;
    });
  }

  @Override
  public void delete(Path path) throws IOException {
    gate.call(PORT, "delete", true, PortGate.args(path), () -> {
      fs.delete(path);
      return null;
    });
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    gate.call(PORT, "syncDirectory", true, PortGate.args(dir), () -> {
      fs.syncDirectory(dir);
      return null;
    });
  }

  @Override
  public void chmod(Path path, int mode) throws IOException {
    gate.call(PORT, "chmod", true, PortGate.args(path, octal(mode)), () -> {
      fs.chmod(path, mode);
      return null;
    });
  }

  @Override
  public void chown(Path path, int uid, int gid) throws IOException {
    gate.call(PORT, "chown", true, PortGate.args(path, uid + ":" + gid), () -> {
      fs.chown(path, uid, gid);
      return null;
    });
  }

  @Override
  public void chmodDurably(Path path, int mode) throws IOException {
    gate.call(PORT, "chmodDurably", true, PortGate.args(path, octal(mode)), () -> {
      fs.chmodDurably(path, mode);
      return null;
    });
  }

  @Override
  public void chownDurably(Path path, int uid, int gid) throws IOException {
    gate.call(PORT, "chownDurably", true, PortGate.args(path, uid + ":" + gid), () -> {
      fs.chownDurably(path, uid, gid);
      return null;
    });
  }

  @Override
  public Optional<HostLock> tryLock(Path lockFile) throws IOException {
    return gate.call(
        PORT,
        "tryLock",
        true,
        PortGate.args(lockFile),
        () -> fs.tryLock(lockFile, caller.getAsLong()));
  }

  @Override
  public OptionalLong lockHolder(Path lockFile) throws IOException {
    return gate.call(
        PORT, "lockHolder", false, PortGate.args(lockFile), () -> fs.lockHolder(lockFile));
  }

  private static String octal(int mode) {
    return "0" + Integer.toOctalString(mode);
  }
}
