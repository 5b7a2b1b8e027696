package dev.noneops.ports.mounts;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One line of {@code /proc/self/mountinfo}, with its octal escapes ({@code \040} for a space)
 * decoded.
 *
 * @param mountId the mount's unique id (field 1)
 * @param parentId the parent mount's id (field 2)
 * @param device {@code major:minor} of the filesystem (field 3)
 * @param root the root of the mount within its filesystem (field 4); not {@code /} for a bind
 *     mount of a subdirectory
 * @param mountPoint where it is mounted (field 5)
 * @param options per-mount options (field 6)
 * @param fsType the filesystem type, e.g. {@code tmpfs}, {@code overlay}
 * @param source the mount source, e.g. {@code /dev/sda1}, {@code overlay}
 */
public record MountEntry(
    long mountId,
    long parentId,
    String device,
    String root,
    Path mountPoint,
    String options,
    String fsType,
    String source) {
  public MountEntry {
    Objects.requireNonNull(device, "device");
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(mountPoint, "mountPoint");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(fsType, "fsType");
    Objects.requireNonNull(source, "source");
  }
}
