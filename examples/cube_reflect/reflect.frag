#version 330 core
// A mirror sphere: per-pixel normal of a sphere filling the view, the view ray reflected
// about it, and the cube map looked up in the reflected direction (seamless, trilinear).
in vec2 v_uv;
out vec4 color;
uniform samplerCube env;
uniform vec4 light; // direction (xyz), unused w
void main() {
    vec2 p = v_uv * 2.0 - 1.0;
    p.y = -p.y;
    float r2 = dot(p, p);
    if (r2 > 1.0) {
        // background: the environment straight behind
        color = vec4(texture(env, vec3(p.x, p.y, -1.0)).rgb * 0.6, 1.0);
        return;
    }
    vec3 n = vec3(p, sqrt(1.0 - r2));
    vec3 refl = reflect(vec3(0.0, 0.0, -1.0), n);
    vec3 c = texture(env, refl).rgb;
    float spec = pow(max(dot(refl, normalize(light.xyz)), 0.0), 40.0);
    float fres = 0.25 + 0.75 * pow(1.0 - n.z, 3.0);
    color = vec4(c * (0.55 + 0.45 * fres) + vec3(spec), 1.0);
}
