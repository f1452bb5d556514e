/** What `run` throws (the test fails when it throws nothing). */
export const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing thrown');
};
