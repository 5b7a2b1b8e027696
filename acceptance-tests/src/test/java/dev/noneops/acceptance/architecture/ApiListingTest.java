package dev.noneops.acceptance.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** An API listing holds what another package can use, with its signatures, and nothing else. */
class ApiListingTest {
  @Test
  void publicAndProtectedMembersAreListedSortedWithGenericSignatures() {
    String type = ApiSample.class.getName();

    assertThat(ApiListing.of(List.of(ApiSample.class)))
        .containsExactly(
            "public class " + type
                + "<T extends java.lang.Comparable<T>> implements java.lang.Runnable {",
            "  protected java.util.List<T> items",
            "  protected static java.lang.String name()",
            "  public <R> R first(java.lang.Class<R>) throws java.io.IOException",
            "  public <init>(java.util.List<T>)",
            "  public static final int LIMIT",
            "  public void run()",
            "}");
  }

  @Test
  void aTypeNestedInOneNoOtherPackageSeesIsLeftOutAndAnEnumListsItsConstantsOnly() {
    String mode = ApiSample.Mode.class.getName();

    assertThat(ApiListing.of(List.of(ApiSample.Hidden.class, ApiSample.Mode.class)))
        .containsExactly(
            "public enum " + mode + " {",
            "  public static final " + mode + " OFF",
            "  public static final " + mode + " ON",
            "}");
  }

  @Test
  void aRecordListsItsComponentsButNotTheMethodsEveryRecordHas() {
    String point = ApiSample.Point.class.getName();

    assertThat(ApiListing.of(List.of(ApiSample.Point.class)))
        .containsExactly(
            "public record " + point + " {",
            "  public <init>(int,int)",
            "  public int x()",
            "  public int y()",
            "}");
  }

  @Test
  void aTypeOfAnInternalPackageIsLeftOut() {
    assertThat(ApiListing.of(List.of(dev.noneops.core.node.internal.task.Task.class)))
        .isEmpty();
  }
}
