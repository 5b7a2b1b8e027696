package dev.noneops.acceptance.architecture;

import java.io.IOException;
import java.util.List;

/** A public type with members of every visibility, for {@link ApiListingTest}. */
public class ApiSample<T extends Comparable<T>> implements Runnable {
  public static final int LIMIT = 3;
  protected List<T> items;
  int packageCount;

  public ApiSample(List<T> items) {
    this.items = items;
  }

  ApiSample() {}

  @Override
  public void run() {}

  public <R> R first(Class<R> type) throws IOException {
    throw new IOException(type.getName());
  }

  protected static String name() {
    return "sample";
  }

  void packageMethod() {}

  private void privateMethod() {}

  /** Public, but inside a type no other package sees. */
  static class Hidden {
    public void visibleOnlyInside() {}
  }

  /** A record: its components are its API, its equals, hashCode and toString every record's. */
  public record Point(int x, int y) {}

  public enum Mode {
    ON,
    OFF
  }
}
