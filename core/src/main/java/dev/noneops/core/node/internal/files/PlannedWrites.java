package dev.noneops.core.node.internal.files;

import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.files.HostLock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * A {@link HostFiles} that reads the host but changes nothing: every mutation is recorded as the
 * path it would have changed (for a directory creation, each missing level). Running a
 * configuration writer over it yields exactly the shared paths writing that configuration would
 * touch, which is what the saved configuration of an upgrade must cover, without duplicating the
 * writer's knowledge of file names. Locks are refused, since nothing is really done.
 */
public final class PlannedWrites implements HostFiles {
  private final HostFiles host;
  private final Set<Path> touched = new TreeSet<>();
  private final Set<Path> removed = new TreeSet<>();

  public PlannedWrites(HostFiles host) {
    this.host = Objects.requireNonNull(host, "host");
  }

  /** Every path a mutation was asked for, sorted. */
  public Set<Path> touched() {
    return Collections.unmodifiableSet(touched);
  }

  /** The paths among {@link #touched()} whose removal was asked for, sorted. */
  public Set<Path> removed() {
    return Collections.unmodifiableSet(removed);
  }

  @Override
  public Optional<FileMeta> lstat(Path path) throws IOException {
    return host.lstat(path);
  }

  @Override
  public boolean exists(Path path) throws IOException {
    return host.exists(path);
  }

  @Override
  public byte[] read(Path path) throws IOException {
    return host.read(path);
  }

  @Override
  public InputStream openRead(Path path) throws IOException {
    return host.openRead(path);
  }

  @Override
  public List<String> list(Path dir) throws IOException {
    return host.list(dir);
  }

  @Override
  public String readLink(Path link) throws IOException {
    return host.readLink(link);
  }

  @Override
  public long writeDurably(Path path, InputStream content, int mode) throws IOException {
    touch(path);
    return content.readAllBytes().length;
  }

  @Override
  public void createDirectories(Path dir, int mode) throws IOException {
    touch(dir);
    for (Path p = dir.normalize().getParent();
        p != null && p.getParent() != null && !host.exists(p);
        p = p.getParent()) {
      touched.add(p);
    }
  }

  @Override
  public void symlinkDurably(Path link, String target) throws IOException {
    touch(link);
  }

  @Override
  public void renameDurably(Path from, Path to) throws IOException {
    touch(from);
    touch(to);
  }

  @Override
  public void removeDurably(Path path) throws IOException {
    touch(path);
    removed.add(path.normalize());
  }

  @Override
  public void delete(Path path) throws IOException {
    touch(path);
    removed.add(path.normalize());
  }

  @Override
  public void syncDirectory(Path dir) {
    // nothing is written, so there is nothing to make durable
  }

  @Override
  public void chmod(Path path, int mode) throws IOException {
    touch(path);
  }

  @Override
  public void chown(Path path, int uid, int gid) throws IOException {
    touch(path);
  }

  @Override
  public void chmodDurably(Path path, int mode) {
    touch(path);
  }

  @Override
  public void chownDurably(Path path, int uid, int gid) {
    touch(path);
  }

  @Override
  public Optional<HostLock> tryLock(Path lockFile) {
    throw new IllegalStateException("planning writes takes no lock: " + lockFile);
  }

  @Override
  public OptionalLong lockHolder(Path lockFile) throws IOException {
    return host.lockHolder(lockFile);
  }

  private void touch(Path path) {
    if (!path.isAbsolute()) {
      throw new IllegalArgumentException("host paths must be absolute: " + path);
    }
    touched.add(path.normalize());
  }
}
