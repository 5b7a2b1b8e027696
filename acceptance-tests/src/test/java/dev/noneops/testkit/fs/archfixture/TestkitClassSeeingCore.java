package dev.noneops.testkit.fs.archfixture;

import dev.noneops.core.layout.Layout;

/** A deliberately bad testkit class: it names a core class. Test fixture only. */
public final class TestkitClassSeeingCore {
  private TestkitClassSeeingCore() {}

  static Class<?> core() {
    return Layout.class;
  }
}
