/** Where the runners put things in a container; the extraction reads traces against these paths. */
export const PROJECT_DIR = '/work';
export const JAVA_DEPENDENCY_DIR = '/work/target/dependency';
export const MAVEN_REPOSITORY = '/root/.m2/repository';
export const CPP_BUILD_DIR = '/work/build';
