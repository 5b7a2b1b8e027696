package dev.noneops.testkit.system;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.ports.mounts.MountEntry;
import dev.noneops.ports.mounts.MountTable;
import dev.noneops.ports.mounts.UnmountFlag;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The sandbox's mount table: read from its PID 1's mountinfo (mount points are the sandbox's
 * paths, mount ids the kernel's, as the file port's mount identity reports them), and unmounts
 * done inside its mount namespace with {@code umount(8)}, since a process outside cannot
 * {@code umount2} a mount of another namespace. {@code umount} runs in the sandbox's PID namespace
 * too: it reads {@code /proc/self/mountinfo}, and the sandbox's {@code /proc} has no {@code self}
 * for a process of another PID namespace, which makes every unmount fail with "No such file or
 * directory" (taken for "already unmounted").
 */
public final class SandboxMountTable implements MountTable {
  private static final Duration UMOUNT_TIMEOUT = Duration.ofSeconds(30);

  private final MountTable sandboxMountInfo;
  private final CommandRunner host;
  private final SandboxRoot root;

  /**
   * @param sandboxMountInfo the real mount table adapter reading {@code /proc/<pid>/mountinfo}
   * @param host the host's command runner, which runs {@code nsenter}
   */
  public SandboxMountTable(MountTable sandboxMountInfo, CommandRunner host, SandboxRoot root) {
    this.sandboxMountInfo = Objects.requireNonNull(sandboxMountInfo, "sandboxMountInfo");
    this.host = Objects.requireNonNull(host, "host");
    this.root = Objects.requireNonNull(root, "root");
  }

  @Override
  public List<MountEntry> mounts() throws IOException {
    return sandboxMountInfo.mounts();
  }

  @Override
  public void unmount(Path mountPoint, Set<UnmountFlag> flags) throws IOException {
    List<String> argv = new ArrayList<>(List.of(
        "nsenter",
        "--target",
        Long.toString(root.pid()),
        "--mount",
        "--pid",
        "--",
        "umount",
        "--no-canonicalize"));
    if (flags.contains(UnmountFlag.DETACH)) {
      argv.add("--lazy");
    }
    argv.add(mountPoint.toString());
    CommandResult r = host.run(Command.of(UMOUNT_TIMEOUT, argv.toArray(String[]::new)));
    if (r.succeeded()) {
      return;
    }
    String why = r.stderr();
    Errno errno = why.contains("not mounted")
        ? Errno.EINVAL
        : why.contains("busy")
            ? Errno.EBUSY
            : why.contains("No such file") ? Errno.ENOENT : Errno.EIO;
    throw new HostIOException(
        errno, "umount2 (in sandbox " + root.pid() + ")", mountPoint.toString());
  }
}
