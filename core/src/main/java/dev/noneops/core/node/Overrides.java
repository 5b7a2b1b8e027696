package dev.noneops.core.node;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The seams of a node, left at their defaults in production (the real host) and set by tests
 * that run a node against a temporary tree or a simulated host.
 *
 * @param layout the agent-owned directory
 * @param hostRoot the prefix of every shared host path ({@code /} on a real host)
 * @param systemdDir where units are written; empty means {@code <hostRoot>/etc/systemd/system}
 * @param imageArchiveDir where staged image archives ({@code *.tar}) are imported from after
 *     containerd starts; empty means {@code <hostRoot>}{@value #DEFAULT_IMAGE_ARCHIVE_DIR}
 * @param download replaces the artifact installation of {@code prepare}
 * @param setupGpu replaces the host GPU setup that runs before the stack starts
 * @param waitKubelet replaces the bounded kubelet readiness wait
 * @param timeouts the bounds of every wait
 * @param parallelExecutor where parallel tasks (downloads) run; {@code Runnable::run} runs them
 *     one after the other, deterministically
 * @param lockWait how long an operation waits for the node lock another process holds; by
 *     default it is refused at once
 */
public record Overrides(
    Layout layout,
    Path hostRoot,
    Optional<Path> systemdDir,
    Optional<Path> imageArchiveDir,
    Optional<Hook> download,
    Optional<Hook> setupGpu,
    Optional<Hook> waitKubelet,
    TimeoutOptions timeouts,
    Executor parallelExecutor,
    LockWait lockWait) {

  /** Where staged container image archives are found unless overridden. */
  public static final String DEFAULT_IMAGE_ARCHIVE_DIR = "/var/lib/unbounded/images";

  public static final Overrides DEFAULTS = builder().build();

  public Overrides {
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(hostRoot, "hostRoot");
    Objects.requireNonNull(systemdDir, "systemdDir");
    Objects.requireNonNull(imageArchiveDir, "imageArchiveDir");
    Objects.requireNonNull(download, "download");
    Objects.requireNonNull(setupGpu, "setupGpu");
    Objects.requireNonNull(waitKubelet, "waitKubelet");
    Objects.requireNonNull(timeouts, "timeouts");
    Objects.requireNonNull(parallelExecutor, "parallelExecutor");
    Objects.requireNonNull(lockWait, "lockWait");
  }

  /** The shared host paths these overrides select. */
  public HostPaths hostPaths() {
    HostPaths rooted = new HostPaths(hostRoot, hostRoot.resolve("etc/systemd/system"));
    return new HostPaths(hostRoot, systemdDir.orElse(rooted.systemdDir()));
  }

  /** The image archive directory these overrides select. */
  public Path effectiveImageArchiveDir() {
    return imageArchiveDir.orElse(hostPaths().host(DEFAULT_IMAGE_ARCHIVE_DIR));
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.layout = layout;
    b.hostRoot = hostRoot;
    b.systemdDir = systemdDir;
    b.imageArchiveDir = imageArchiveDir;
    b.download = download;
    b.setupGpu = setupGpu;
    b.waitKubelet = waitKubelet;
    b.timeouts = timeouts;
    b.parallelExecutor = parallelExecutor;
    b.lockWait = lockWait;
    return b;
  }

  /** Builds {@link Overrides}; every field starts at the production default. */
  public static final class Builder {
    private Layout layout = Layout.defaultLayout();
    private Path hostRoot = Path.of("/");
    private Optional<Path> systemdDir = Optional.empty();
    private Optional<Path> imageArchiveDir = Optional.empty();
    private Optional<Hook> download = Optional.empty();
    private Optional<Hook> setupGpu = Optional.empty();
    private Optional<Hook> waitKubelet = Optional.empty();
    private TimeoutOptions timeouts = TimeoutOptions.DEFAULTS;
    private Executor parallelExecutor = Runnable::run;
    private LockWait lockWait = LockWait.NONE;

    public Builder layout(Layout layout) {
      this.layout = layout;
      return this;
    }

    public Builder hostRoot(Path hostRoot) {
      this.hostRoot = hostRoot;
      return this;
    }

    public Builder systemdDir(Path systemdDir) {
      this.systemdDir = Optional.of(systemdDir);
      return this;
    }

    public Builder imageArchiveDir(Path imageArchiveDir) {
      this.imageArchiveDir = Optional.of(imageArchiveDir);
      return this;
    }

    public Builder download(Hook download) {
      this.download = Optional.of(download);
      return this;
    }

    public Builder setupGpu(Hook setupGpu) {
      this.setupGpu = Optional.of(setupGpu);
      return this;
    }

    public Builder waitKubelet(Hook waitKubelet) {
      this.waitKubelet = Optional.of(waitKubelet);
      return this;
    }

    public Builder timeouts(TimeoutOptions timeouts) {
      this.timeouts = timeouts;
      return this;
    }

    public Builder parallelExecutor(Executor parallelExecutor) {
      this.parallelExecutor = parallelExecutor;
      return this;
    }

    public Builder lockWait(LockWait lockWait) {
      this.lockWait = lockWait;
      return this;
    }

    public Overrides build() {
      return new Overrides(
          layout,
          hostRoot,
          systemdDir,
          imageArchiveDir,
          download,
          setupGpu,
          waitKubelet,
          timeouts,
          parallelExecutor,
          lockWait);
    }
  }

  /** A replaceable step of a node operation (GPU setup, kubelet wait, artifact download). */
  @FunctionalInterface
  public interface Hook {
    void run() throws Exception;
  }
}
