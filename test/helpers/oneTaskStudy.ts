/** The smallest gap study file: one replay agent, one Python task; tests append the field they are about. */
export const ONE_TASK_STUDY = `name: s1
agents:
  - kind: replay
    name: rec
    path: ../corpus
languages: [python]
tasks: [p_01]
`;
