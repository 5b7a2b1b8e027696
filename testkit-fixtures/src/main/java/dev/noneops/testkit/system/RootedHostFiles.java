package dev.noneops.testkit.system;

import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.files.HostLock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@link HostFiles} whose absolute paths are the sandbox's: every call goes to the real adapter
 * with the path moved below {@link SandboxRoot#root()}, like a chroot. Symlink targets are kept
 * verbatim (they are the sandbox's), and {@link FileMeta#path()} is the path the caller asked for.
 *
 * <p>What a chroot would do and this does not: an absolute symlink in the middle of a path is
 * resolved by the host's kernel against the host's root. The node reads no file through such a
 * link (its links are read with {@code readLink}, never followed).
 */
public final class RootedHostFiles implements HostFiles {
  private final HostFiles host;
  private final SandboxRoot root;

  public RootedHostFiles(HostFiles host, SandboxRoot root) {
    this.host = Objects.requireNonNull(host, "host");
    this.root = Objects.requireNonNull(root, "root");
  }

  private Path out(Path path) {
    return root.outside(path);
  }

  @Override
  public Optional<FileMeta> lstat(Path path) throws IOException {
    return host.lstat(out(path)).map(m -> m.withPath(path));
  }

  @Override
  public byte[] read(Path path) throws IOException {
    return host.read(out(path));
  }

  @Override
  public InputStream openRead(Path path) throws IOException {
    return host.openRead(out(path));
  }

  @Override
  public List<String> list(Path dir) throws IOException {
    return host.list(out(dir));
  }

  @Override
  public String readLink(Path link) throws IOException {
    return host.readLink(out(link));
  }

  @Override
  public long writeDurably(Path path, InputStream content, int mode) throws IOException {
    return host.writeDurably(out(path), content, mode);
  }

  @Override
  public void createDirectories(Path dir, int mode) throws IOException {
    host.createDirectories(out(dir), mode);
  }

  @Override
  public void symlinkDurably(Path link, String target) throws IOException {
    host.symlinkDurably(out(link), target);
  }

  @Override
  public void renameDurably(Path from, Path to) throws IOException {
    host.renameDurably(out(from), out(to));
  }

  @Override
  public void removeDurably(Path path) throws IOException {
    host.removeDurably(out(path));
  }

  @Override
  public void delete(Path path) throws IOException {
    host.delete(out(path));
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    host.syncDirectory(out(dir));
  }

  @Override
  public void chmod(Path path, int mode) throws IOException {
    host.chmod(out(path), mode);
  }

  @Override
  public void chown(Path path, int uid, int gid) throws IOException {
    host.chown(out(path), uid, gid);
  }

  @Override
  public void chmodDurably(Path path, int mode) throws IOException {
    host.chmodDurably(out(path), mode);
  }

  @Override
  public void chownDurably(Path path, int uid, int gid) throws IOException {
    host.chownDurably(out(path), uid, gid);
  }

  @Override
  public Optional<HostLock> tryLock(Path lockFile) throws IOException {
    return host.tryLock(out(lockFile));
  }

  @Override
  public OptionalLong lockHolder(Path lockFile) throws IOException {
    return host.lockHolder(out(lockFile));
  }
}
