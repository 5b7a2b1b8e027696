package dev.noneops.acceptance.upgrade;

import dev.noneops.ports.files.FileType;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fs.SimFileSystem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The durable file tree of a simulated host right after a crash, which is all a crash leaves
 * (processes, units, kernel state and tmpfs contents are gone): captured once and laid into as
 * many fresh hosts as a suite needs, so every crash point starts from the same surviving state
 * without replaying what led to it. Two images with the same {@link #digest()} lead to the same
 * recovery.
 */
final class HostImage {
  private final List<SimFileSystem.WalkEntry> entries;
  private final String digest;

  private HostImage(List<SimFileSystem.WalkEntry> entries) {
    this.entries = entries;
    this.digest = digestOf(entries);
  }

  /** The tree of {@code host}, which must have just crashed (so it holds only what was durable). */
  static HostImage capture(SimulatedHost host) {
    synchronized (host.monitor()) {
      try {
        return new HostImage(host.fs().walk(Path.of("/")).stream()
            .filter(e -> !e.path().equals("/run") && !e.path().startsWith("/run/"))
            .toList());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** A fresh host holding this tree, durably, with nothing running. */
  SimulatedHost newHost() {
    SimulatedHost host = SimulatedHost.create();
    synchronized (host.monitor()) {
      SimFileSystem fs = host.fs();
      try {
        for (SimFileSystem.WalkEntry e : entries) {
          Path p = Path.of(e.path());
          if (p.getParent() == null) {
            continue;
          }
          switch (e.type()) {
            case DIRECTORY -> fs.seedDirectory(p, e.mode());
            case REGULAR -> fs.seedFile(p, e.content(), e.mode());
            case SYMLINK -> fs.seedSymlink(p, e.linkTarget());
            default -> {
              if (fs.lstat(p).isEmpty()) {
                fs.seedNode(p, e.type(), e.mode(), e.major(), e.minor());
              }
            }
          }
          if (e.type() != FileType.SYMLINK && (e.uid() != 0 || e.gid() != 0)) {
            fs.seedOwner(p, e.uid(), e.gid());
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot lay the image into a new host", e);
      }
    }
    host.kernel().boot();
    return host;
  }

  /** A digest of the whole tree: paths, types, modes, owners, contents and link targets. */
  String digest() {
    return digest;
  }

  private static String digestOf(List<SimFileSystem.WalkEntry> entries) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      for (SimFileSystem.WalkEntry e : entries) {
        md.update((e.path() + "\0" + e.type() + "\0" + e.mode() + "\0" + e.uid() + ":" + e.gid()
                + "\0" + e.linkTarget() + "\0")
            .getBytes());
        if (e.content() != null) {
          md.update(e.content());
        }
        md.update(new byte[] {1});
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HostImage other && digest.equals(other.digest);
  }

  @Override
  public int hashCode() {
    return digest.hashCode();
  }

  int size() {
    return entries.size();
  }

  static boolean sameContent(byte[] a, byte[] b) {
    return Arrays.equals(a, b);
  }
}
