/** Where the runners put things in a container; the extraction reads traces against these paths. */
export const PROJECT_DIR = '/work';
export const JAVA_DEPENDENCY_DIR = '/work/target/dependency';
export const MAVEN_REPOSITORY = '/root/.m2/repository';
export const CPP_BUILD_DIR = '/work/build';
/**
 * The harness's own tools, baked into the runtime images (coverage.py, JaCoCo): outside the project, the
 * venv and the Maven repository layouts, so in neither D2 nor what D3 maps files to.
 */
export const HARNESS_DIR = '/opt/envgap-harness';
