package dev.noneops.hostfs.process;

import dev.noneops.hostfs.internal.io.IoErrors;
import dev.noneops.hostfs.nativeio.Syscalls;
import dev.noneops.ports.process.Cgroups;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cgroup v2 (unified) hierarchy mounted at a root directory, by default {@code /sys/fs/cgroup}.
 * A cgroup path such as {@code /kubepods.slice/pod1} names the directory below that root.
 */
public final class UnifiedCgroups implements Cgroups {

  private static final String CONTROLLERS = "cgroup.controllers";
  private static final String PROCS = "cgroup.procs";
  private static final String KILL = "cgroup.kill";
  private static final Pattern RELEASE = Pattern.compile("(\\d+)\\.(\\d+)");

  private final Path root;
  private final Path osRelease;
  private final Syscalls syscalls;

  /**
   * @param root the cgroup2 mount
   * @param osRelease the kernel release file ({@code /proc/sys/kernel/osrelease}), consulted by
   *     {@link #supportsKill()} when no cgroup shows whether {@code cgroup.kill} exists
   */
  public UnifiedCgroups(Path root, Path osRelease, Syscalls syscalls) {
    this.root = Objects.requireNonNull(root, "root");
    this.osRelease = Objects.requireNonNull(osRelease, "osRelease");
    this.syscalls = Objects.requireNonNull(syscalls, "syscalls");
  }

  @Override
  public boolean available() {
    return Files.isRegularFile(root.resolve(CONTROLLERS));
  }

  @Override
  public boolean exists(String cgroup) throws IOException {
    return Files.isDirectory(dirOf(cgroup), LinkOption.NOFOLLOW_LINKS);
  }

  @Override
  public List<String> children(String cgroup) throws IOException {
    Path dir = dirOf(cgroup);
    List<String> children = new ArrayList<>();
    try (DirectoryStream<Path> entries =
        Files.newDirectoryStream(dir, p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))) {
      for (Path child : entries) {
        children.add(join(cgroup, String.valueOf(child.getFileName())));
      }
    } catch (IOException e) {
      throw IoErrors.translate(e, "list", dir);
    }
    children.sort(null);
    return children;
  }

  @Override
  public List<Long> pids(String cgroup) throws IOException {
    Path procs = dirOf(cgroup).resolve(PROCS);
    List<Long> pids = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(procs, StandardCharsets.US_ASCII)) {
        String trimmed = line.trim();
        if (!trimmed.isEmpty()) {
          pids.add(Long.parseLong(trimmed));
        }
      }
    } catch (IOException e) {
      throw IoErrors.translate(e, "read", procs);
    } catch (NumberFormatException e) {
      throw new IOException(procs + " holds something that is not a pid: " + e.getMessage(), e);
    }
    return pids;
  }

  /**
   * Whether the kernel offers {@code cgroup.kill}. The root cgroup never has the file, so a child
   * cgroup shows it; in a hierarchy without any child cgroup the kernel release decides (5.14
   * introduced the file).
   */
  @Override
  public boolean supportsKill() throws IOException {
    if (Files.exists(root.resolve(KILL))) {
      return true;
    }
    try (DirectoryStream<Path> entries =
        Files.newDirectoryStream(root, p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))) {
      for (Path child : entries) {
        return Files.exists(child.resolve(KILL));
      }
    } catch (IOException e) {
      throw IoErrors.translate(e, "list", root);
    }
    return kernelAtLeast(5, 14);
  }

  private boolean kernelAtLeast(int major, int minor) throws IOException {
    String release;
    try {
      release = Files.readString(osRelease, StandardCharsets.US_ASCII).strip();
    } catch (IOException e) {
      throw IoErrors.translate(e, "read", osRelease);
    }
    Matcher m = RELEASE.matcher(release);
    if (!m.lookingAt()) {
      throw new IOException(
          "cannot read a kernel version from " + osRelease + ": '" + release + "'");
    }
    int actualMajor = Integer.parseInt(m.group(1));
    int actualMinor = Integer.parseInt(m.group(2));
    return actualMajor > major || (actualMajor == major && actualMinor >= minor);
  }

  @Override
  public void kill(String cgroup) throws IOException {
    Path kill = dirOf(cgroup).resolve(KILL);
    try {
      Files.write(kill, new byte[] {'1'}, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw IoErrors.translate(e, "write", kill);
    }
  }

  @Override
  public void remove(String cgroup) throws IOException {
    if (cgroup.equals("/")) {
      throw new IllegalArgumentException("the root cgroup cannot be removed");
    }
    syscalls.rmdir(dirOf(cgroup));
  }

  private Path dirOf(String cgroup) {
    Objects.requireNonNull(cgroup, "cgroup");
    if (!cgroup.startsWith("/")) {
      throw new IllegalArgumentException("a cgroup path starts with '/': " + cgroup);
    }
    Path relative = Path.of(cgroup.substring(1));
    for (Path name : relative) {
      String n = name.toString();
      if (n.equals("..") || n.equals(".")) {
        throw new IllegalArgumentException("a cgroup path must not contain '.' or '..': " + cgroup);
      }
    }
    return cgroup.equals("/") ? root : root.resolve(relative);
  }

  private static String join(String parent, String child) {
    return parent.endsWith("/") ? parent + child : parent + "/" + child;
  }

  @Override
  public String toString() {
    return "cgroup v2 hierarchy at " + root;
  }
}
