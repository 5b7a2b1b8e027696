package dev.noneops.testkit.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A sandbox's disk: a host directory holding the upper and work directories of the overlay a
 * {@link SystemdSandbox} boots over, so that what the sandbox writes outlives it. A sandbox booted
 * with {@link SystemdSandbox#boot(String, SandboxDisk, java.time.Duration)} on a disk another one
 * left (stopped by {@link SystemdSandbox#powerCut()}) is a reboot of the same machine: its systemd
 * finds the unit files and {@code *.wants/} links written before, and starts what they enable.
 *
 * <p>The disk holds only the sandbox's root file system; its {@code /run}, {@code /tmp} and
 * {@code /dev} are tmpfs mounts of each boot, volatile as on a real host. The units the host itself
 * enabled are disabled once, at a disk's first boot (see {@link BootScript}); a unit the sandbox
 * enables later stays enabled across reboots.
 *
 * <p>One sandbox at a time may run on a disk. {@link #close()} stops that sandbox, if any, and then
 * removes the directory it created and everything in it; a disk a killed JVM left behind is
 * removed when the next disk is created. The directory must be on a file system the overlay accepts
 * as an upper layer (ext4, xfs, btrfs, tmpfs), not on an overlay.
 */
public final class SandboxDisk implements AutoCloseable {
  static final String PREFIX = "noneops-disk-";
  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,30}");
  /** {@code noneops-disk-<name>-<jvm pid>-<random digits>}. */
  private static final Pattern OWNER = Pattern.compile(Pattern.quote(PREFIX) + ".+-(\\d+)-\\d+");
  /** A separate volume's mount point: absolute, plain characters. */
  private static final Pattern VOLUME = Pattern.compile("(/[A-Za-z0-9._-]+)+");
  /** Characters the overlay's mount options cannot carry in a path. */
  private static final Pattern UNSAFE_PATH = Pattern.compile("[,:\\\\\\s]");

  private final Path directory;
  private String claimedBy;
  private SystemdSandbox runningOn;
  private boolean closed;

  private SandboxDisk(Path directory) {
    this.directory = directory;
  }

  /** Creates an empty disk under {@code java.io.tmpdir}. */
  public static SandboxDisk create(String name) {
    return create(name, Path.of(System.getProperty("java.io.tmpdir")));
  }

  /**
   * Creates an empty disk named {@code name} (lower-case letters, digits, dashes) in {@code
   * parent}: a new directory {@code noneops-disk-<name>-<jvm pid>-<digits>} with {@code upper/} and
   * {@code work/} in it.
   *
   * @throws UncheckedIOException when the directories cannot be created
   */
  public static SandboxDisk create(String name, Path parent) {
    Objects.requireNonNull(parent, "parent");
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("disk name must match " + NAME + ": '" + name + "'");
    }
    Path absolute = parent.toAbsolutePath().normalize();
    if (UNSAFE_PATH.matcher(absolute.toString()).find()) {
      throw new IllegalArgumentException(
          "the overlay's options cannot name a directory under " + absolute);
    }
    removeLeftovers(absolute);
    try {
      Path directory = Files.createTempDirectory(
          absolute, PREFIX + name + "-" + ProcessHandle.current().pid() + "-");
      Files.createDirectory(directory.resolve("upper"));
      Files.createDirectory(directory.resolve("work"));
      return new SandboxDisk(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a sandbox disk in " + absolute, e);
    }
  }

  /** The disk's directory on the host. */
  public Path directory() {
    return directory;
  }

  /**
   * Where the disk holds {@code absolutePathInside} if a sandbox wrote it (the overlay's upper
   * layer): a file the sandbox only read lives in the host root, not here.
   */
  public Path written(String absolutePathInside) {
    if (!absolutePathInside.startsWith("/")) {
      throw new IllegalArgumentException(
          "expected an absolute path inside the sandbox: " + absolutePathInside);
    }
    return upper().resolve(absolutePathInside.substring(1));
  }

  /**
   * Gives every sandbox that boots on this disk from now on a separate volume at {@code
   * absolutePathInside}, as a node with a second disk mounts one there: a directory of this disk on
   * the host's own file system, bind-mounted at that path before the sandbox's systemd starts, so
   * the path is a mount point whose file system is no overlay (containerd's overlay snapshotter
   * cannot put its upper directories on the sandbox's overlay root) and whose content survives a
   * {@link SystemdSandbox#powerCut()} like the rest of the disk. Called before the boots that
   * should have the volume, from the thread that boots them.
   *
   * @param absolutePathInside where the volume is mounted, e.g. {@code /var/lib/containerd}
   * @return this disk
   * @throws IllegalArgumentException when the path is not absolute and plain (letters, digits,
   *     {@code . _ - /}, no {@code ..})
   * @throws UncheckedIOException when the volume's directory cannot be created
   */
  public SandboxDisk withSeparateVolume(String absolutePathInside) {
    if (!VOLUME.matcher(absolutePathInside).matches() || absolutePathInside.contains("..")) {
      throw new IllegalArgumentException(
          "a separate volume needs a plain absolute path: '" + absolutePathInside + "'");
    }
    try {
      Files.createDirectories(directory.resolve("volumes" + absolutePathInside));
      Files.writeString(
          directory.resolve("separate-volumes"),
          absolutePathInside + "\n",
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the volume " + absolutePathInside, e);
    }
  }

  Path upper() {
    return directory.resolve("upper");
  }

  Path work() {
    return directory.resolve("work");
  }

  /** Reserves the disk for a sandbox about to boot on it; refuses a second one. */
  synchronized void claim(String sandboxName) {
    if (closed) {
      throw new IllegalStateException("sandbox disk " + directory + " is closed");
    }
    if (claimedBy != null) {
      throw new IllegalStateException("sandbox disk " + directory + " is in use by sandbox "
          + claimedBy + "; cut its power or close it first");
    }
    claimedBy = sandboxName;
  }

  /** The sandbox that claimed the disk has started; {@link #close()} stops it. */
  synchronized void attach(SystemdSandbox sandbox) {
    runningOn = sandbox;
  }

  /** The sandbox that claimed the disk is gone. */
  synchronized void release() {
    claimedBy = null;
    runningOn = null;
  }

  private synchronized Optional<SystemdSandbox> running() {
    return Optional.ofNullable(runningOn);
  }

  /**
   * Stops the sandbox running on this disk, if any, then deletes the disk's directory and
   * everything in it (nothing outside: links are deleted, never followed). Idempotent.
   *
   * @throws UncheckedIOException when something cannot be deleted
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    running().ifPresent(SystemdSandbox::close);
    try {
      deleteTree(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete sandbox disk " + directory, e);
    }
  }

  private static void deleteTree(Path directory) throws IOException {
    if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    List<Path> entries;
    try (Stream<Path> tree = Files.walk(directory)) {
      entries =
          tree.sorted(Comparator.comparingInt(Path::getNameCount).reversed()).toList();
    }
    for (Path entry : entries) {
      Files.deleteIfExists(entry);
    }
  }

  /** Deletes the disks of JVMs that are gone (their sandboxes died with them). */
  private static void removeLeftovers(Path parent) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent, PREFIX + "*")) {
      for (Path entry : entries) {
        Matcher name = OWNER.matcher(String.valueOf(entry.getFileName()));
        if (name.matches()
            && Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)
            && ProcessHandle.of(Long.parseLong(name.group(1))).isEmpty()) {
          deleteTree(entry);
        }
      }
    } catch (IOException | RuntimeException e) {
      System.err.println("cannot remove stale sandbox disks in " + parent + ": " + e);
    }
  }

  @Override
  public String toString() {
    return "SandboxDisk[" + directory + "]";
  }
}
