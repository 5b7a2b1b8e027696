package dev.noneops.core.node.internal.preflight;

import dev.noneops.core.layout.Layout;
import dev.noneops.ports.host.HostFacts;
import java.io.IOException;
import java.util.Locale;

/**
 * Room under the layout for a version (its downloads, extracted) beside the active one during an
 * upgrade: below {@link #REQUIRED_BYTES} fails, below {@link #COMFORTABLE_BYTES} warns.
 */
public final class FreeSpaceCheck implements PreflightCheck {
  public static final long REQUIRED_BYTES = 2L << 30;
  public static final long COMFORTABLE_BYTES = 10L << 30;

  private final HostFacts facts;
  private final Layout layout;

  public FreeSpaceCheck(HostFacts facts, Layout layout) {
    this.facts = facts;
    this.layout = layout;
  }

  @Override
  public String name() {
    return "free-space";
  }

  @Override
  public CheckOutcome run() throws IOException {
    long usable = facts.usableBytes(layout.root());
    String detail = gib(usable) + " free under " + layout.root();
    if (usable < REQUIRED_BYTES) {
      return fail(
          detail + "; a version needs " + gib(REQUIRED_BYTES),
          "free space on that file system (or prune old versions: noneops prune)");
    }
    if (usable < COMFORTABLE_BYTES) {
      return warn(
          detail,
          "an upgrade installs a second version beside the active one, and images need room:"
              + " keep " + gib(COMFORTABLE_BYTES) + " free");
    }
    return ok(detail);
  }

  public static String gib(long bytes) {
    return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
  }
}
