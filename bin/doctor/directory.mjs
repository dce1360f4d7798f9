export async function checkDirectory() {}
